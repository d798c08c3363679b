package dev.tflitearena.cli.options;

import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.tflm.TflmAllocations;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code --for tflm} and its {@code --alignment}, of the commands that plan a model under another runtime's
 * rules than TFLite's: plan, compare-planners, report. TFLM's rules come from the .tflite alone (no native code).
 */
public final class ForRuntimeOption {
    /** The runtimes whose rules a plan can follow besides TFLite's. */
    enum Runtime { tflm }

    @Option(names = "--for", paramLabel = "RUNTIME", description = "Plan a model under another runtime's rules "
            + "than TFLite's: ${COMPLETION-CANDIDATES}, TFLite Micro's, read from the .tflite alone (TFLM's own "
            + "tensor lifetimes, one arena for every subgraph on one timeline, sizes rounded up to --alignment), as "
            + "'bake --for tflm' plans. A model that holds an offline plan shows it: tflm-greedy keeps its offsets "
            + "and places the rest around them, as TFLM does.")
    Runtime runtime;

    @Option(names = "--alignment", defaultValue = "" + TflmAllocations.DEFAULT_ALIGNMENT, paramLabel = "N",
            description = "With --for tflm: TFLM's buffer alignment, MicroArenaBufferAlignment() "
                    + "(default: ${DEFAULT-VALUE}).")
    int alignment;

    public boolean tflm() {
        return runtime == Runtime.tflm;
    }

    /** The model's tensors under TFLM's rules; refused for anything but a model. */
    public TflmAllocations allocations(Path input) throws IOException {
        if (GraphSource.Kind.of(input, GraphSource.Kind.MODEL, GraphSource.Kind.GRAPH_JSON,
                GraphSource.Kind.BUFFER_CSV) != GraphSource.Kind.MODEL) {
            throw new IllegalArgumentException("--for tflm plans a model (.tflite), whose rules TFLM reads from it; "
                    + input + " is not one");
        }
        return TflmAllocations.of(TfliteFile.read(input), alignment);
    }

    /**
     * Every placer on the model's buffers, after the model's own offline plan where it has one: tflm-greedy
     * keeping its offsets, under the name {@value OfflinePlan#NAME}.
     */
    public static List<Placer> withOfflinePlan(TflmAllocations allocations, List<Placer> placers) {
        List<Placer> all = new ArrayList<>();
        OfflineMemoryAllocation.of(allocations.model())
                .ifPresent(plan -> all.add(new OfflinePlan(allocations.offline(plan))));
        all.addAll(placers);
        return all;
    }

    /** TFLM's greedy planner with the offsets of the model's offline plan, as TFLM's allocator runs it. */
    record OfflinePlan(Map<Integer, Long> kept) implements Placer {
        static final String NAME = "offline plan";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Solution place(BufferSet buffers) {
            return new TflmGreedyPlacer(kept).place(buffers);
        }
    }
}
