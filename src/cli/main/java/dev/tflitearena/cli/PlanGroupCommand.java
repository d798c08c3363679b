package dev.tflitearena.cli;

import dev.tflitearena.cli.options.GraphSource;
import dev.tflitearena.cli.options.NativeOptions;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.TimeLimitOption;
import dev.tflitearena.cli.output.GroupReport;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.group.GroupPlan;
import dev.tflitearena.plan.group.GroupPlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "plan-group", mixinStandardHelpOptions = true,
        description = "Plans models that run one after another, never two at once, on one rw arena: their primary "
                + "subgraphs on one timeline, each tensor live within its model's run (rw variables across them "
                + "all), so that one model's activations take another's bytes; persistent arenas stay per model. "
                + "A model's outputs stay valid until the next model of the group runs. Shows the group's arena "
                + "against each model's alone. A model may be given twice. Every plan is validated.")
final class PlanGroupCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite|GRAPH.json", arity = "1..*")
    List<Path> models;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The placement strategy of the group's timeline: tflite, tflm-greedy, tflm-linear, "
                    + "greedy-by-size, greedy-by-breadth, best-of, optimal (default: ${DEFAULT-VALUE}).")
    String planner;

    @Mixin
    TimeLimitOption timeLimit;

    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        List<Graph> graphs = new ArrayList<>();
        for (Path model : models) {
            graphs.add(GraphSource.read(model, nativeOptions.settings()));
        }
        GroupPlan plan = GroupPlanner.plan(graphs, planner, timeLimit.duration());
        GroupPlanner.validate(graphs, plan, graphs.stream().mapToInt(g -> g.options().tensorAlignment()).max()
                .orElseThrow());
        output.print(() -> GroupReport.toJson(models, plan), out -> GroupReport.printText(out, models, plan));
        return 0;
    }
}
