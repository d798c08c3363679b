package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.cli.options.NativeOptions;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.PlanComparison.SubgraphComparison;
import dev.tflitearena.plan.PlanComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Plans a model with the Java 'tflite' planner and compares it, tensor by tensor, with the "
                + "native ArenaPlanner's plan of the same prepared interpreter. Exit status 0 only when identical.")
final class CompareCommand implements Callable<Integer> {
    static final int EXIT_DIFFERENT = 1;

    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the inputs a graph with dynamic-shape ops is run on once before comparing "
                    + "(default: ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    Output output;

    @Override
    public Integer call() {
        InterpreterSettings settings = nativeOptions.settings();
        CrossCheck.Result result;
        try (NativeModel loaded = NativeModel.load(model)) {
            result = CrossCheck.run(loaded, settings, seed);
        }
        Graph graph = result.graph();
        PlanComparison comparison = result.comparison();
        output.print(() -> toJson(graph, comparison, settings, result),
                out -> printText(out, graph, comparison, settings, result));
        return comparison.identical() ? 0 : EXIT_DIFFERENT;
    }

    private ObjectNode toJson(Graph graph, PlanComparison comparison, InterpreterSettings settings,
                              CrossCheck.Result result) {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("resolver", settings.resolverName());
        root.put("tflite_library", NativeRelease.version());
        root.put("tflite_release", graph.options().release().version());
        root.put("preserve_all_tensors", settings.preserveAllTensors());
        root.put("invokes_before_compare", result.invokes());
        root.put("invoked_because", result.invokedFor());
        root.put("identical", comparison.identical());
        ArrayNode subgraphs = root.putArray("subgraphs");
        for (SubgraphComparison c : comparison.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(c.subgraph());
            ObjectNode s = subgraphs.addObject();
            s.put("index", c.subgraph());
            s.put("identical", c.identical());
            s.put("compared", c.compared());
            s.put("not_compared_because", c.notCompared());
            s.put("tensors_compared", c.tensorsCompared());
            s.put("mismatches", c.mismatches().size());
            s.put("java_arena_bytes", c.actual().arenaBytes());
            s.put("native_arena_bytes", c.expected().arenaBytes());
            s.put("java_persistent_bytes", c.actual().persistentBytes());
            s.put("native_persistent_bytes", c.expected().persistentBytes());
            ArrayNode tensors = s.putArray("tensors");
            if (!c.compared()) {
                continue;
            }
            List<Placement> nativePlacements = c.expected().placements();
            List<Placement> javaPlacements = c.actual().placements();
            for (int i = 0; i < javaPlacements.size(); i++) {
                Placement java = javaPlacements.get(i);
                ObjectNode t = tensors.addObject();
                t.put("index", java.tensor());
                t.put("name", subgraph.tensor(java.tensor()).name());
                t.put("bytes", java.bytes());
                t.put("arena", java.arena().jsonName());
                Json.putOffset(t, "java_offset", java.offset());
                Json.putOffset(t, "native_offset", nativePlacements.get(i).offset());
            }
        }
        return root;
    }

    private void printText(PrintWriter out, Graph graph, PlanComparison comparison, InterpreterSettings settings,
                           CrossCheck.Result result) {
        out.printf("%s (%s%s, TFLite %s under %s's rules)%s%n", model, settings.resolverName(),
                settings.preserveAllTensors() ? ", preserve_all_tensors" : "", NativeRelease.version(),
                graph.options().release(),
                result.invokes() == 0 ? "" : ", plans read after " + result.invokes() + " invoke: "
                        + result.invokedFor());
        for (SubgraphComparison c : comparison.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(c.subgraph());
            out.printf("%nsubgraph %d%s%n", c.subgraph(), subgraph.name().isEmpty() ? "" : " (" + subgraph.name() + ")");
            if (!c.compared()) {
                out.printf("no native plan to compare: %s%n", c.notCompared());
                continue;
            }
            TextTable table = new TextTable("tensor", "arena", "bytes", "java_offset", "native_offset", "", "name")
                    .leftAlign(1).leftAlign(5).leftAlign(6);
            List<Placement> nativePlacements = c.expected().placements();
            List<Placement> javaPlacements = c.actual().placements();
            for (int i = 0; i < javaPlacements.size(); i++) {
                Placement java = javaPlacements.get(i);
                long nativeOffset = nativePlacements.get(i).offset();
                table.add(java.tensor(), java.arena().jsonName(), java.bytes(), TextTable.orDash(java.offset()),
                        TextTable.orDash(nativeOffset), java.offset() == nativeOffset ? "" : "MISMATCH",
                        subgraph.tensor(java.tensor()).name());
            }
            table.print(out);
        }
        out.println();
        TextTable summary = new TextTable("subgraph", "tensors", "mismatches", "java_arena", "native_arena",
                "java_persistent", "native_persistent");
        for (SubgraphComparison c : comparison.subgraphs()) {
            if (c.compared()) {
                summary.add(c.subgraph(), c.tensorsCompared(), c.mismatches().size(), c.actual().arenaBytes(),
                        c.expected().arenaBytes(), c.actual().persistentBytes(), c.expected().persistentBytes());
            } else {
                summary.add(c.subgraph(), "-", "-", c.actual().arenaBytes(), "no plan", c.actual().persistentBytes(),
                        "no plan");
            }
        }
        summary.print(out);
        long notCompared = comparison.subgraphs().stream().filter(c -> !c.compared()).count();
        out.println((comparison.identical() ? "identical" : "DIFFERENT")
                + (notCompared == 0 ? "" : " (" + notCompared + " subgraph" + (notCompared == 1 ? "" : "s")
                + " without a native plan, not compared)"));
    }
}
