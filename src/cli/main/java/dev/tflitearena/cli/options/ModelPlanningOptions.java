package dev.tflitearena.cli.options;

import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.place.TflmGreedyPlanner;
import dev.tflitearena.plan.place.TflmLinearPlacer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** How 'plan' and 'fit' plan a model, a graph JSON or a buffer set: the planner or --plan, and the graph's rules. */
public final class ModelPlanningOptions {
    static final String PLANNER = "--planner";

    @Option(names = PLANNER, defaultValue = "tflite", paramLabel = "NAME",
            description = "The placement strategy: tflite, tflm-greedy, tflm-linear, greedy-by-size, "
                    + "greedy-by-breadth, best-of, optimal (default: ${DEFAULT-VALUE}; tflm-greedy with plan --for tflm). "
                    + "tflm-greedy keeps the offline offsets of a model's OfflineMemoryAllocation metadata or a "
                    + "CSV's offline column.")
    public String planner;

    @Mixin
    public TimeLimitOption timeLimit;

    @Mixin
    public PlanFileOption planFile;

    @Mixin
    public GraphOptions graph;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** Whether --planner was given, rather than left to its default. */
    public boolean plannerNamed() {
        return spec.commandLine().getParseResult().hasMatchedOption(PLANNER);
    }

    /** A buffer set has no ops, graph inputs or tensors to place: refuses --plan, --order and --release-inputs. */
    public void refuseForBuffers(Path input) {
        if (planFile.given()) {
            throw new IllegalArgumentException("--plan places a model's tensors; " + input + " is a bare buffer set");
        }
        if (graph.order.value() != Order.MODEL) {
            throw new IllegalArgumentException(input + ": --order applies to a graph's ops; a buffer set has none");
        }
        graph.releaseInputs.refuseForBuffers();
    }

    public OrderedGraph read(Path input) throws IOException {
        return graph.read(input);
    }

    /** The plan of --plan, else the planner of --planner for the model or graph JSON {@code input}. */
    public Planner planner(Path input) throws IOException {
        return planFile.given() ? planFile.read(input, graph.releaseInputs.on, graph.order.value(),
                graph.nativeOptions.xnnpack.on) : strategy(input);
    }

    /**
     * The planner of --planner; for a model whose metadata holds TFLM's offline plan, tflm-greedy keeps its
     * offsets, and tflm-linear refuses them as TFLM's LinearMemoryPlanner does.
     */
    private Planner strategy(Path input) throws IOException {
        Planner named = Planners.byName(planner, timeLimit.duration());
        boolean tflm = planner.equals(TflmGreedyPlacer.NAME) || planner.equals(TflmLinearPlacer.NAME);
        if (GraphSource.Kind.of(input, GraphSource.Kind.MODEL, GraphSource.Kind.GRAPH_JSON) != GraphSource.Kind.MODEL) {
            return named;
        }
        if (!plannerNamed()) {
            return bakedOr(input, named);
        }
        if (!tflm) {
            return named;
        }
        TfliteModel model = TfliteFile.read(input);
        Optional<OfflineMemoryAllocation> offline;
        try {
            offline = OfflineMemoryAllocation.of(model);
        } catch (InvalidModelException e) {
            throw new InvalidModelException(input + ": " + e.getMessage());
        }
        if (offline.isEmpty()) {
            return named;
        }
        if (planner.equals(TflmLinearPlacer.NAME)) {
            throw new IllegalArgumentException(input + " holds an offline plan (" + OfflineMemoryAllocation.NAME
                    + "), which TFLM's LinearMemoryPlanner refuses; " + TflmGreedyPlacer.NAME + " keeps it");
        }
        return new TflmGreedyPlanner(offline.get().offsets());
    }

    /** The model's baked plan, used as a session uses it, else {@code otherwise}. */
    private Planner bakedOr(Path input, Planner otherwise) throws IOException {
        return BakedPlanChoice.of(input, otherwise, false, graph, spec.commandLine().getErr()).planner();
    }
}
