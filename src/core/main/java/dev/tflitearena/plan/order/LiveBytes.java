package dev.tflitearena.plan.order;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.LowerBound;

import java.util.ArrayList;
import java.util.List;

/**
 * The rw bytes live at each node of any order, under TFLite's lifetime rules: what {@link LowerBound} measures,
 * without re-deriving the lifetimes for each order. A buffer (a tensor with rw memory of its own, shared in
 * place by its aliases) is made by the node that outputs it, or is there from the start (graph inputs,
 * variables); it is freed after the last of its keepers runs (the nodes reading it or an alias, or the node a
 * temporary belongs to), or never when TFLite keeps it to the end. Which tensors are buffers, and which are
 * kept to the end, does not depend on the order; only where the last keeper falls does.
 */
final class LiveBytes {
    private final long atStart;
    private final long[] made;
    /** Per node, the buffers it keeps that are freed once their keepers have all run. */
    private final int[][] kept;
    private final long[] bufferBytes;
    private final long[][] keepers;
    private final boolean matchesLowerBound;

    private LiveBytes(long atStart, long[] made, int[][] kept, long[] bufferBytes, long[][] keepers,
                      Subgraph subgraph, Graph.Options options) {
        this.atStart = atStart;
        this.made = made;
        this.kept = kept;
        this.bufferBytes = bufferBytes;
        this.keepers = keepers;
        int[] own = new int[subgraph.nodes().size()];
        for (int v = 0; v < own.length; v++) {
            own[v] = v;
        }
        this.matchesLowerBound = peak(own) == LowerBound.of(subgraph, options);
    }

    static LiveBytes of(Subgraph subgraph, Graph.Options options) {
        Lifetimes lifetimes = Lifetimes.of(subgraph, options);
        int n = subgraph.nodes().size();
        List<List<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < subgraph.tensors().size(); t++) {
            readers.add(new ArrayList<>());
        }
        for (int v = 0; v < n; v++) {
            for (int t : subgraph.nodes().get(v).inputs()) {
                if (t >= 0) {
                    int root = lifetimes.aliasRoot(t) >= 0 ? lifetimes.aliasRoot(t) : t;
                    readers.get(root).add(v);
                }
            }
        }
        long atStart = 0;
        long[] made = new long[n];
        List<Long> bytes = new ArrayList<>();
        List<long[]> keeperSets = new ArrayList<>();
        List<List<Integer>> kept = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            kept.add(new ArrayList<>());
        }
        for (Tensor tensor : subgraph.tensors()) {
            int t = tensor.index();
            if (tensor.allocation() != Allocation.ARENA_RW || tensor.bytes() == 0
                    || lifetimes.allocNode(t) == Lifetimes.NOT_ASSIGNED || lifetimes.aliasRoot(t) >= 0) {
                continue;
            }
            int first = lifetimes.allocNode(t);
            boolean madeByNode = first < n && (contains(subgraph.nodes().get(first).outputs(), t)
                    || contains(subgraph.nodes().get(first).temporaries(), t));
            if (madeByNode) {
                made[first] += tensor.bytes();
            } else {
                atStart += tensor.bytes();
            }
            if (lifetimes.deallocNode(t) == Lifetimes.NOT_ASSIGNED) {
                continue;
            }
            long[] keeperSet = new long[Precedence.words(n)];
            for (int reader : readers.get(t)) {
                Precedence.set(keeperSet, reader);
            }
            if (madeByNode && contains(subgraph.nodes().get(first).temporaries(), t)) {
                Precedence.set(keeperSet, first);
            }
            if (Precedence.nextSet(keeperSet, 0) < 0) {
                Precedence.set(keeperSet, lifetimes.deallocNode(t));
            }
            int buffer = bytes.size();
            bytes.add(tensor.bytes());
            keeperSets.add(keeperSet);
            for (int v = Precedence.nextSet(keeperSet, 0); v >= 0; v = Precedence.nextSet(keeperSet, v + 1)) {
                kept.get(v).add(buffer);
            }
        }
        return new LiveBytes(atStart, made,
                kept.stream().map(list -> list.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new),
                bytes.stream().mapToLong(Long::longValue).toArray(), keeperSets.toArray(long[][]::new),
                subgraph, options);
    }

    /**
     * Whether this model gives {@link LowerBound}'s figure for the model's own order. Only then may a search
     * trust it; where it does not (a rule it lacks), orders are measured with {@link LowerBound} alone.
     */
    boolean matchesLowerBound() {
        return matchesLowerBound;
    }

    /** The bytes live before any node runs. */
    long atStart() {
        return atStart;
    }

    /** The bytes a node's outputs and temporaries add when it runs. */
    long made(int node) {
        return made[node];
    }

    /** Whether {@code node} keeps no buffer: what it makes stays live after it, and it frees nothing. */
    boolean freesNothing(int node) {
        return kept[node].length == 0;
    }

    /** The bytes freed once {@code node} has run after the nodes of {@code done}. */
    long freed(long[] done, int node) {
        long freed = 0;
        for (int buffer : kept[node]) {
            if (onlyLeft(keepers[buffer], done, node)) {
                freed += bufferBytes[buffer];
            }
        }
        return freed;
    }

    /** The most bytes live at one node when the nodes run in {@code order}. */
    long peak(int[] order) {
        long[] done = new long[Precedence.words(made.length)];
        long live = atStart;
        long peak = order.length == 0 ? atStart : 0;
        for (int v : order) {
            peak = Math.max(peak, live + made[v]);
            live += made[v] - freed(done, v);
            Precedence.set(done, v);
        }
        return peak;
    }

    /** Whether {@code node} is the only one of {@code set} not in {@code done}. */
    private static boolean onlyLeft(long[] set, long[] done, int node) {
        for (int w = 0; w < set.length; w++) {
            long left = set[w] & ~done[w];
            long expected = w == node >>> 6 ? 1L << node : 0;
            if (left != expected) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(int[] list, int value) {
        for (int v : list) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }
}
