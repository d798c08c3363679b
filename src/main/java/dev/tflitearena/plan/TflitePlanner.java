package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TFLite's own CPU planner, ArenaPlanner over two SimpleMemoryArenas, as a whole-graph plan
 * ({@code PlanAllocations} then {@code ExecuteAllocations(0, last node)}): offsets equal the native ones,
 * tensor by tensor. Ties in the allocation order are broken as the native library, built with GCC,
 * breaks them: candidates come from per-node hash sets and are ordered by libstdc++'s introsort.
 */
public final class TflitePlanner implements Planner {
    public static final String NAME = "tflite";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        Lifetimes lifetimes = Lifetimes.of(subgraph, options);
        int[] order = allocationOrder(subgraph, lifetimes);

        SimpleMemoryArena rw = new SimpleMemoryArena();
        SimpleMemoryArena persistent = new SimpleMemoryArena();
        long[] offset = new long[subgraph.tensors().size()];
        Arrays.fill(offset, -1);
        for (int t : order) {
            Tensor tensor = subgraph.tensor(t);
            if (lifetimes.aliasRoot(t) >= 0) {
                continue;
            }
            if (tensor.allocation() == Allocation.ARENA_RW) {
                long o = rw.allocate(options.tensorAlignment(), tensor.bytes(), lifetimes.allocNode(t),
                        lifetimes.deallocNode(t));
                offset[t] = tensor.bytes() == 0 ? -1 : o;
            } else if (offset[t] < 0) {
                long o = persistent.allocate(options.tensorAlignment(), tensor.bytes(), lifetimes.allocNode(t),
                        Lifetimes.NOT_ASSIGNED);
                offset[t] = tensor.bytes() == 0 ? -1 : o;
            }
        }
        return new SubgraphPlan(subgraph.index(), rw.highWaterMark(), persistent.highWaterMark(),
                placements(subgraph, lifetimes, offset));
    }

    /**
     * The candidates of every node in hash-set order, kept if TFLite would place them (ArenaRw tensors with
     * bytes, persistent ones), sorted: whole-lifetime tensors first by index, then by size descending and
     * first node ascending. A tensor filed under two nodes is a candidate twice, as in TFLite.
     */
    private static int[] allocationOrder(Subgraph subgraph, Lifetimes lifetimes) {
        int[] candidates = new int[16];
        int count = 0;
        for (int node = 0; node < lifetimes.nodeCount(); node++) {
            GnuUnorderedIntSet filed = new GnuUnorderedIntSet();
            for (int t : lifetimes.nodeTensors(node)) {
                filed.insert(t);
            }
            for (int t : filed.iterationOrder()) {
                Tensor tensor = subgraph.tensor(t);
                boolean placed = tensor.allocation() == Allocation.ARENA_RW_PERSISTENT
                        || (tensor.allocation() == Allocation.ARENA_RW && tensor.bytes() > 0);
                if (placed) {
                    if (count == candidates.length) {
                        candidates = Arrays.copyOf(candidates, count * 2);
                    }
                    candidates[count++] = t;
                }
            }
        }
        GnuIntroSort.sort(candidates, 0, count, (a, b) -> {
            boolean wholeA = lifetimes.isWholeLifetime(a);
            boolean wholeB = lifetimes.isWholeLifetime(b);
            if (wholeA || wholeB) {
                return wholeA && wholeB ? a < b : wholeA;
            }
            long bytesA = subgraph.tensor(a).bytes();
            long bytesB = subgraph.tensor(b).bytes();
            if (bytesA != bytesB) {
                return bytesA > bytesB;
            }
            return lifetimes.allocNode(a) < lifetimes.allocNode(b);
        });
        return Arrays.copyOf(candidates, count);
    }

    private static List<Placement> placements(Subgraph subgraph, Lifetimes lifetimes, long[] offset) {
        List<Placement> placements = new ArrayList<>();
        for (Tensor tensor : subgraph.tensors()) {
            if (!tensor.allocation().isArena()) {
                continue;
            }
            int t = tensor.index();
            Arena arena = tensor.allocation() == Allocation.ARENA_RW ? Arena.RW : Arena.PERSISTENT;
            int root = lifetimes.aliasRoot(t);
            long at = offset[t];
            if (root >= 0) {
                // An alias takes its root's memory only when both live in the same arena.
                at = subgraph.tensor(root).allocation() == tensor.allocation() ? offset[root] : -1;
            }
            boolean allocated = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED;
            placements.add(new Placement(t, arena, at, tensor.bytes(),
                    allocated ? lifetimes.allocNode(t) : -1,
                    allocated ? lifetimes.lastNode(t) : -1,
                    root));
        }
        return placements;
    }
}
