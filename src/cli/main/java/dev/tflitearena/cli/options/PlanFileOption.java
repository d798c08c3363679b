package dev.tflitearena.cli.options;

import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.BakedPlanner;
import dev.tflitearena.plan.place.ImportedPlan;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/** {@code --plan FILE}: offsets an outside planner chose, used instead of a Java planner's. */
public final class PlanFileOption {
    @Option(names = "--plan", paramLabel = "FILE", description = "Use the offsets in FILE instead of a planner's: "
            + "a .csv in MiniMalloc's output format (" + ImportedPlan.CSV_HEADER + "; the ids and intervals of "
            + "plan --export-buffers) for the subgraph of --plan-subgraph, the other subgraphs planned as TFLite "
            + "does; a .json as plan --json writes it, for every subgraph; or a .tflite that 'bake --for tflite' "
            + "wrote, its baked plan (planner name '" + BakedPlanner.NAME + "'). The plan is checked against the "
            + "model first and refused, naming the tensors, if it does not fit.")
    public Path file;

    @Option(names = "--plan-subgraph", paramLabel = "N",
            description = "The subgraph a MiniMalloc --plan places (default: 0).")
    Integer subgraph;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Whether --plan was given; refuses --plan-subgraph without it, and --plan beside --planner. */
    public boolean given() {
        if (file == null && subgraph != null) {
            throw new IllegalArgumentException("--plan-subgraph is for --plan");
        }
        if (file != null && command.commandLine().getParseResult().hasMatchedOption(ModelPlanningOptions.PLANNER)) {
            throw new IllegalArgumentException("--plan and --planner both say where the tensors go: give one");
        }
        return file != null;
    }

    /** The plan of --plan; null when it was not given. */
    public Planner read() throws IOException {
        String name = file == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean csv = name.endsWith(".csv");
        if (name.endsWith(".tflite")) {
            if (subgraph != null) {
                throw new IllegalArgumentException("--plan-subgraph is for a --plan in MiniMalloc's format (.csv): a "
                        + "baked plan places every subgraph");
            }
            byte[] entry = TfliteFile.read(file).metadata().stream().filter(m -> m.name().equals(BakedPlan.NAME))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("--plan " + file + ": the model holds "
                            + "no baked plan (metadata '" + BakedPlan.NAME + "'); 'bake --for tflite' writes one"))
                    .data();
            return new BakedPlanner(BakedPlan.decode(entry, file.toString()));
        }
        if (subgraph != null && !csv) {
            throw new IllegalArgumentException("--plan-subgraph is for a --plan in MiniMalloc's format (.csv): a "
                    + "plan JSON places every subgraph");
        }
        return file == null ? null : ImportedPlan.read(file, subgraph == null ? 0 : subgraph);
    }
}
