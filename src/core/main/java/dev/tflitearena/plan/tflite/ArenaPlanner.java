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
    /** Each tensor's allocation type and size, by index: read for every candidate, so not looked up each time. */
    private final Allocation[] allocation;
    private final long[] bytes;
    private final SimpleMemoryArena arena;
    private final PersistentArena persistentArena;
    /** One allocation record per tensor, by index. */
    private final ArenaAllocs records;
    private final GnuUnorderedIntSet filed = new GnuUnorderedIntSet();
    private final AllocationOrder order;
    /** The candidates of the current ExecuteAllocations, then their allocation order; reused between calls. */
    private int[] candidates;
    private int lastActiveNode = Lifetimes.NOT_ASSIGNED;

    ArenaPlanner(Subgraph subgraph, Graph.Options options) {
        this.subgraph = subgraph;
        this.options = options;
        this.lifetimes = Lifetimes.of(subgraph, options);
        int tensors = subgraph.tensors().size();
        allocation = new Allocation[tensors];
        bytes = new long[tensors];
        for (int t = 0; t < tensors; t++) {
            Tensor tensor = subgraph.tensor(t);
            allocation[t] = tensor.allocation();
            bytes[t] = tensor.bytes();
        }
        arena = new SimpleMemoryArena(tensors, lifetimes.nodeCount());
        persistentArena = new PersistentArena();
        records = new ArenaAllocs(tensors);
        records.count = tensors;
        for (int t = 0; t < tensors; t++) {
            records.setBlank(t);
        }
        order = new AllocationOrder(lifetimes, bytes);
        candidates = new int[tensors];
    }

    Lifetimes lifetimes() {
        return lifetimes;
    }

    /**
     * Gives a tensor the allocation type and size it has from now on, as a kernel's prepare or eval changes
     * it between two ExecuteAllocations; what the arenas hold of it stays, as in TFLite.
     */
    void setAllocation(int tensor, Allocation kind, long size) {
        allocation[tensor] = kind;
        bytes[tensor] = size;
    }

    void executeAllocations(int first, int last) {
        int count = collectCandidates(first, Math.min(last, Math.max(lifetimes.nodeCount(), 1) - 1));
        if (count == 0) {
            lastActiveNode = last;
            return;
        }
        if (first < lastActiveNode) {
            arena.resetAllocs();
            lastActiveNode = first;
        } else {
            arena.purgeActiveAllocs(first);
        }
        GnuIntroSort.sort(candidates, 0, count, order);
        long alignment = options.tensorAlignment();
        for (int i = 0; i < count; i++) {
            int t = candidates[i];
            if (lifetimes.aliasRoot(t) >= 0) {
                continue;
            }
            int allocNode = lifetimes.allocNode(t);
            if (allocation[t] == Allocation.ARENA_RW) {
                int deallocNode = lifetimes.deallocNode(t);
                records.set(t, arena.allocate(alignment, bytes[t], allocNode, deallocNode), bytes[t], allocNode,
                        deallocNode);
            } else if (records.size[t] == 0) {
                records.set(t, persistentArena.allocate(alignment, bytes[t]),
                        bytes[t], allocNode, Lifetimes.NOT_ASSIGNED);
            }
        }
        lastActiveNode = last;
    }

    /** Forgets the rw tensors first needed after {@code node}, keeping the arena around the survivors. */
    void resetAllocationsAfter(int node) {
        for (int t = 0; t < records.count; t++) {
            if (records.first[t] > node && records.size[t] > 0 && allocation[t] == Allocation.ARENA_RW) {
                records.setBlank(t);
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
        List<Placement> placements = new ArrayList<>(allocation.length);
        for (int t = 0; t < allocation.length; t++) {
            if (!allocation[t].isArena()) {
                continue;
            }
            Arena kind = allocation[t] == Allocation.ARENA_RW ? Arena.RW : Arena.PERSISTENT;
            int root = lifetimes.aliasRoot(t);
            long offset = offset(t);
            if (root >= 0) {
                // An alias takes its root's memory only when both live in the same arena.
                offset = allocation[root] == allocation[t] ? offset(root) : -1;
            }
            boolean allocated = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED;
            placements.add(new Placement(t, kind, offset, bytes[t],
                    allocated ? lifetimes.allocNode(t) : -1, allocated ? lifetimes.lastNode(t) : -1, root));
        }
        return new SubgraphPlan(subgraph.index(), arena.highWaterMark(), persistentArena.highWaterMark(),
                placements);
    }

    private long offset(int tensor) {
        return records.size[tensor] == 0 ? -1 : records.offset[tensor];
    }

    /**
     * Gathers into {@link #candidates} the tensors filed under nodes {@code first..last}, each node's in hash-set
     * order, kept if TFLite would (re)place them: rw tensors whose record is smaller than they are, every
     * persistent tensor. A tensor filed under two nodes is a candidate twice, as in TFLite. Returns how many.
     */
    private int collectCandidates(int first, int last) {
        int count = 0;
        for (int node = first; node <= last; node++) {
            int[] tensors = lifetimes.nodeTensors(node);
            if (candidates.length < count + tensors.length) {
                candidates = Arrays.copyOf(candidates, Math.max(candidates.length * 2, count + tensors.length));
            }
            int end;
            if (tensors.length == 1) {
                // Most nodes file one output, and a one-element set iterates as just that element.
                candidates[count] = tensors[0];
                end = count + 1;
            } else {
                filed.reset();
                for (int t : tensors) {
                    filed.insert(t);
                }
                end = count + filed.copyInIterationOrder(candidates, count);
            }
            for (int i = count; i < end; i++) {
                int t = candidates[i];
                boolean placed = allocation[t] == Allocation.ARENA_RW_PERSISTENT
                        || (allocation[t] == Allocation.ARENA_RW && records.size[t] < bytes[t]);
                if (placed) {
                    candidates[count++] = t;
                }
            }
        }
        return count;
    }
}
