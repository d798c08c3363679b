package dev.tflitearena.plan.tflite;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.SubgraphPlan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TFLite's ArenaPlanner for one subgraph, call for call: lifetimes at construction ({@code PlanAllocations}),
 * then {@code ExecuteAllocations} over node ranges and {@code ResetAllocationsAfter}, with the state they
 * carry between calls: one allocation record per tensor, the arenas' active lists, the last active node.
 */
final class ArenaPlanner {
    private final Subgraph subgraph;
    private final Graph.Options options;
    private final Lifetimes lifetimes;
    private final SimpleMemoryArena arena = new SimpleMemoryArena();
    private final SimpleMemoryArena persistentArena = new SimpleMemoryArena();
    private final SimpleMemoryArena.Alloc[] records;
    private int lastActiveNode = Lifetimes.NOT_ASSIGNED;

    ArenaPlanner(Subgraph subgraph, Graph.Options options) {
        this.subgraph = subgraph;
        this.options = options;
        this.lifetimes = Lifetimes.of(subgraph, options);
        this.records = new SimpleMemoryArena.Alloc[subgraph.tensors().size()];
        Arrays.fill(records, SimpleMemoryArena.Alloc.BLANK);
    }

    Lifetimes lifetimes() {
        return lifetimes;
    }

    void executeAllocations(int first, int last) {
        int[] order = candidates(first, Math.min(last, Math.max(lifetimes.nodeCount(), 1) - 1));
        if (order.length == 0) {
            lastActiveNode = last;
            return;
        }
        if (first < lastActiveNode) {
            arena.resetAllocs();
            lastActiveNode = first;
        } else {
            arena.purgeActiveAllocs(first);
        }
        sort(order);
        for (int t : order) {
            if (lifetimes.aliasRoot(t) >= 0) {
                continue;
            }
            Tensor tensor = subgraph.tensor(t);
            if (tensor.allocation() == Allocation.ARENA_RW) {
                records[t] = arena.allocate(options.tensorAlignment(), tensor.bytes(), lifetimes.allocNode(t),
                        lifetimes.deallocNode(t));
            } else if (records[t].size() == 0) {
                records[t] = persistentArena.allocate(options.tensorAlignment(), tensor.bytes(),
                        lifetimes.allocNode(t), Lifetimes.NOT_ASSIGNED);
            }
        }
        lastActiveNode = last;
    }

    /** Forgets the rw tensors first needed after {@code node}, keeping the arena around the survivors. */
    void resetAllocationsAfter(int node) {
        for (int t = 0; t < records.length; t++) {
            if (records[t].first() > node && records[t].size() > 0
                    && subgraph.tensor(t).allocation() == Allocation.ARENA_RW) {
                records[t] = SimpleMemoryArena.Alloc.BLANK;
            }
        }
        if (lastActiveNode > node) {
            // TFLite rebuilds the rw arena's list from every record, the persistent tensors' included.
            arena.calculateActiveAllocs(records, node);
        } else {
            arena.purgeAfter(node);
        }
        lastActiveNode = node;
    }

    /** Where each arena tensor ended up, as the native pointers would show it. */
    SubgraphPlan result() {
        List<Placement> placements = new ArrayList<>();
        for (Tensor tensor : subgraph.tensors()) {
            if (!tensor.allocation().isArena()) {
                continue;
            }
            int t = tensor.index();
            Arena kind = tensor.allocation() == Allocation.ARENA_RW ? Arena.RW : Arena.PERSISTENT;
            int root = lifetimes.aliasRoot(t);
            long offset = offset(t);
            if (root >= 0) {
                // An alias takes its root's memory only when both live in the same arena.
                offset = subgraph.tensor(root).allocation() == tensor.allocation() ? offset(root) : -1;
            }
            boolean allocated = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED;
            placements.add(new Placement(t, kind, offset, tensor.bytes(),
                    allocated ? lifetimes.allocNode(t) : -1, allocated ? lifetimes.lastNode(t) : -1, root));
        }
        return new SubgraphPlan(subgraph.index(), arena.highWaterMark(), persistentArena.highWaterMark(),
                placements);
    }

    private long offset(int tensor) {
        return records[tensor].size() == 0 ? -1 : records[tensor].offset();
    }

    /**
     * The tensors filed under nodes {@code first..last}, each node's in hash-set order, kept if TFLite would
     * (re)place them: rw tensors whose record is smaller than they are, every persistent tensor. A tensor
     * filed under two nodes is a candidate twice, as in TFLite.
     */
    private int[] candidates(int first, int last) {
        int[] candidates = new int[16];
        int count = 0;
        for (int node = first; node <= last; node++) {
            GnuUnorderedIntSet filed = new GnuUnorderedIntSet();
            for (int t : lifetimes.nodeTensors(node)) {
                filed.insert(t);
            }
            for (int t : filed.iterationOrder()) {
                Tensor tensor = subgraph.tensor(t);
                boolean placed = tensor.allocation() == Allocation.ARENA_RW_PERSISTENT
                        || (tensor.allocation() == Allocation.ARENA_RW && records[t].size() < tensor.bytes());
                if (placed) {
                    if (count == candidates.length) {
                        candidates = Arrays.copyOf(candidates, count * 2);
                    }
                    candidates[count++] = t;
                }
            }
        }
        return Arrays.copyOf(candidates, count);
    }

    /** Whole-lifetime tensors first by index, then by size descending and first node ascending. */
    private void sort(int[] order) {
        GnuIntroSort.sort(order, 0, order.length, (a, b) -> {
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
    }
}
