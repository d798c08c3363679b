package dev.tflitearena.bridge;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the native planner's offsets: each arena tensor's data pointer minus the base of its arena. The
 * runtime does not expose the base; it is the lowest pointer in the arena, since SimpleMemoryArena always
 * places its first allocation at offset 0. The reading checks itself: the highest end must then equal the
 * arena size the runtime reports, as its high-water mark is the highest end of any allocation.
 */
final class NativePlanReader {
    static final String NAME = "native";

    private NativePlanReader() {
    }

    static Plan read(Interpreter interpreter) {
        List<SubgraphPlan> plans = new ArrayList<>();
        for (int s = 0; s < interpreter.subgraphs_size(); s++) {
            plans.add(read(interpreter.subgraph(s), s));
        }
        return new Plan(NAME, plans);
    }

    private static SubgraphPlan read(Subgraph subgraph, int index) {
        int count = (int) subgraph.tensors_size();
        Allocation[] kinds = new Allocation[count];
        long[] address = new long[count];
        long[] bytes = new long[count];
        for (int t = 0; t < count; t++) {
            TfLiteTensor tensor = subgraph.tensor(t);
            kinds[t] = NativeTensors.allocation(tensor.allocation_type());
            if (kinds[t].isArena()) {
                address[t] = NativeTensors.dataAddress(tensor);
                bytes[t] = tensor.bytes();
            }
        }
        Subgraph.SubgraphAllocInfo info = new Subgraph.SubgraphAllocInfo();
        try {
            subgraph.GetMemoryAllocInfo(info);
            long rwBase = base(index, Allocation.ARENA_RW, kinds, address, bytes, info.arena_size());
            long persistentBase = base(index, Allocation.ARENA_RW_PERSISTENT, kinds, address, bytes,
                    info.arena_persist_size());
            List<Placement> placements = new ArrayList<>();
            for (int t = 0; t < count; t++) {
                if (!kinds[t].isArena()) {
                    continue;
                }
                boolean rw = kinds[t] == Allocation.ARENA_RW;
                long base = rw ? rwBase : persistentBase;
                long offset = address[t] == 0 ? -1 : address[t] - base;
                placements.add(new Placement(t, rw ? Arena.RW : Arena.PERSISTENT, offset, bytes[t], -1, -1, -1));
            }
            return new SubgraphPlan(index, info.arena_size(), info.arena_persist_size(), placements);
        } finally {
            info.close();
        }
    }

    private static long base(int subgraph, Allocation kind, Allocation[] kinds, long[] address, long[] bytes,
                             long arenaSize) {
        long lowest = Long.MAX_VALUE;
        long highestEnd = 0;
        for (int t = 0; t < kinds.length; t++) {
            if (kinds[t] == kind && address[t] != 0) {
                lowest = Math.min(lowest, address[t]);
                highestEnd = Math.max(highestEnd, address[t] + bytes[t]);
            }
        }
        if (lowest == Long.MAX_VALUE) {
            return 0;
        }
        if (highestEnd - lowest != arenaSize) {
            throw new NativeException("subgraph " + subgraph + ": cannot locate the " + kind.jsonName()
                    + " arena's base: its tensors span " + (highestEnd - lowest) + " bytes but the runtime reports "
                    + arenaSize);
        }
        return lowest;
    }
}
