package dev.tflitearena.bridge.snapshot;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.util.ArrayList;
import java.util.List;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRw;

/**
 * Reads the native planner's offsets: each arena tensor's data pointer minus the base of its arena. The
 * runtime does not expose the base; it is the lowest pointer in the arena, since SimpleMemoryArena always
 * places its first allocation at offset 0, and the plan's high-water mark is then the highest end. The reading
 * checks itself against the buffer size the runtime reports: the buffer holds the mark plus the release's
 * padding ({@link TfliteRelease#arenaBufferPadding()}), or more when the subgraph had a larger plan before (a
 * buffer never shrinks). The plan's sizes are the marks;
 * {@link dev.tflitearena.bridge.NativeInterpreter#memoryInfo()} gives the buffers.
 */
public final class NativePlanReader {
    static final String NAME = "native";

    private NativePlanReader() {
    }

    public static Plan read(Interpreter interpreter, TfliteRelease release) {
        List<SubgraphPlan> plans = new ArrayList<>();
        for (int s = 0; s < interpreter.subgraphs_size(); s++) {
            plans.add(read(interpreter.subgraph(s), s, release));
        }
        return new Plan(NAME, plans);
    }

    public static SubgraphPlan read(Subgraph subgraph, int index, TfliteRelease release) {
        int count = (int) subgraph.tensors_size();
        Allocation[] kinds = new Allocation[count];
        long[] address = new long[count];
        long[] bytes = new long[count];
        boolean[] planned = plannedTensors(subgraph, count);
        for (int t = 0; t < count; t++) {
            TfLiteTensor tensor = subgraph.tensor(t);
            kinds[t] = NativeTensors.allocation(tensor.allocation_type());
            if (kinds[t].isArena()) {
                address[t] = planned[t] ? NativeTensors.dataAddress(tensor) : 0;
                bytes[t] = tensor.bytes();
            }
        }
        Subgraph.SubgraphAllocInfo info = new Subgraph.SubgraphAllocInfo();
        try {
            subgraph.GetMemoryAllocInfo(info);
            Extent rw = Extent.of(index, Allocation.ARENA_RW, kinds, address, bytes, info.arena_size(), release);
            Extent persistent = Extent.of(index, Allocation.ARENA_RW_PERSISTENT, kinds, address, bytes,
                    info.arena_persist_size(), release);
            List<Placement> placements = new ArrayList<>();
            for (int t = 0; t < count; t++) {
                if (!kinds[t].isArena()) {
                    continue;
                }
                boolean isRw = kinds[t] == Allocation.ARENA_RW;
                long base = isRw ? rw.base : persistent.base;
                long offset = address[t] == 0 ? -1 : address[t] - base;
                placements.add(new Placement(t, isRw ? Arena.RW : Arena.PERSISTENT, offset, bytes[t], -1, -1, -1));
            }
            return new SubgraphPlan(index, rw.highWaterMark, persistent.highWaterMark, placements);
        } finally {
            info.close();
        }
    }

    /**
     * Whether the subgraph's rw arena holds no plan: a tensor the planner gives rw memory of its own has none,
     * because TFLite has not planned the subgraph yet or has freed the arena since (ReleaseNonPersistentMemory
     * clears every rw tensor's pointer), as WHILE does to the subgraphs it calls at the end of its invoke.
     */
    public static boolean rwArenaEmpty(Subgraph subgraph) {
        int count = (int) subgraph.tensors_size();
        boolean[] planned = plannedTensors(subgraph, count);
        for (int t = 0; t < count; t++) {
            TfLiteTensor tensor = subgraph.tensor(t);
            if (planned[t] && tensor.allocation_type() == kTfLiteArenaRw && tensor.bytes() > 0
                    && NativeTensors.dataAddress(tensor) == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The tensors ArenaPlanner gives memory: graph inputs, variables, node outputs and temporaries. Any other
     * arena tensor's pointer is left from an earlier plan of the subgraph: up to 2.19 XNNPACK delegates a
     * WHILE body after it was planned, and the tensors it takes over keep pointers into the old plan.
     */
    private static boolean[] plannedTensors(Subgraph subgraph, int count) {
        boolean[] planned = new boolean[count];
        mark(planned, NativeTensors.ints(subgraph.inputs()));
        mark(planned, NativeTensors.ints(subgraph.variables()));
        for (int node : NativeTensors.ints(subgraph.execution_plan())) {
            var pair = subgraph.node_and_registration(node);
            mark(planned, NativeTensors.ints(pair.first().outputs()));
            mark(planned, NativeTensors.ints(pair.first().temporaries()));
        }
        return planned;
    }

    private static void mark(boolean[] planned, int[] tensors) {
        for (int t : tensors) {
            if (t >= 0) {
                planned[t] = true;
            }
        }
    }

    /** Where one arena starts, and its plan's high-water mark; base 0 when no tensor has memory in it. */
    private record Extent(long base, long highWaterMark) {
        static Extent of(int subgraph, Allocation kind, Allocation[] kinds, long[] address, long[] bytes,
                         long bufferBytes, TfliteRelease release) {
            long lowest = Long.MAX_VALUE;
            long highestEnd = 0;
            for (int t = 0; t < kinds.length; t++) {
                if (kinds[t] == kind && address[t] != 0) {
                    lowest = Math.min(lowest, address[t]);
                    highestEnd = Math.max(highestEnd, address[t] + bytes[t]);
                }
            }
            Extent extent = lowest == Long.MAX_VALUE ? new Extent(0, 0) : new Extent(lowest, highestEnd - lowest);
            // A buffer never committed is empty whatever the padding.
            boolean holds = bufferBytes == 0 ? extent.highWaterMark == 0
                    : extent.highWaterMark + release.arenaBufferPadding() <= bufferBytes;
            if (!holds) {
                throw new NativeException("subgraph " + subgraph + ": cannot locate the " + kind.jsonName()
                        + " arena's base: its tensors span " + extent.highWaterMark + " bytes, which with TFLite "
                        + release + "'s padding of " + release.arenaBufferPadding() + " do not fit the "
                        + bufferBytes + "-byte buffer the runtime reports (the library is TFLite "
                        + NativeRelease.version() + ")");
            }
            return extent;
        }
    }
}
