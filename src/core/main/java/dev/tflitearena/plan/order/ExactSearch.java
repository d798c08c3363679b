package dev.tflitearena.plan.order;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order of least peak, by dynamic programming over the sets of nodes already run, as Serenity (MLSys
 * 2020) does. The bytes live after a set has run depend on the set alone, so of all the ways to reach a set
 * only the one of least peak so far matters. The sets are visited by size, one size at a time, each kept
 * once; a way whose peak already reaches the bound to beat is dropped.
 *
 * <p>A node that frees nothing and follows only such nodes (a DEQUANTIZE of constant weights, say) is best
 * run right before the first other node that needs it: the bytes it makes stay live until then either way,
 * and there they are no more than that node's step holds. So such a node is never a move of its own: it
 * runs, with those it follows, just before its first other successor, which leaves only the other nodes to
 * choose among.
 */
final class ExactSearch {
    /**
     * @param order    the order of least peak, below the bound; null when no order beats the bound
     * @param peak     its peak
     * @param states   the sets of nodes visited
     * @param complete false when the search stopped at its limit of sets, proving nothing
     * @param postponed the nodes that were no moves of their own, run just before their first other successor
     */
    record Outcome(int[] order, long peak, int states, boolean complete, int postponed) {
    }

    private ExactSearch() {
    }

    /** The order of least peak below {@code bound}, visiting at most {@code maxStates} sets of nodes. */
    static Outcome run(Precedence precedence, LiveBytes cost, long bound, int maxStates) {
        int n = precedence.nodes();
        int words = Precedence.words(n);
        long[] postponed = new long[words];
        // Per node, the postponed nodes it needs run first, through postponed nodes only.
        long[][] needs = new long[n][words];
        int moves = 0;
        for (int v = 0; v < n; v++) {
            long[] before = precedence.predecessors(v);
            boolean followsPostponedOnly = true;
            for (int p = Precedence.nextSet(before, 0); p >= 0; p = Precedence.nextSet(before, p + 1)) {
                if (Precedence.has(postponed, p)) {
                    Precedence.or(needs[v], needs[p]);
                    Precedence.set(needs[v], p);
                } else {
                    followsPostponedOnly = false;
                }
            }
            if (followsPostponedOnly && cost.freesNothing(v) && precedence.successors(v).length > 0) {
                Precedence.set(postponed, v);
            } else {
                moves++;
            }
        }
        long[] sources = new long[words];
        for (int v = 0; v < n; v++) {
            if (!Precedence.has(postponed, v) && precedence.ready(postponed, v)) {
                Precedence.set(sources, v);
            }
        }
        Visited visited = new Visited();
        Layer layer = new Layer();
        layer.add(new long[words], sources, 0, cost.atStart(), visited.add(-1, -1));
        for (int step = 0; step < moves; step++) {
            Layer next = new Layer();
            for (int i = 0; i < layer.size(); i++) {
                long[] done = layer.done.get(i);
                long[] canRun = layer.ready.get(i);
                for (int v = Precedence.nextSet(canRun, 0); v >= 0; v = Precedence.nextSet(canRun, v + 1)) {
                    long[] after = done.clone();
                    long live = layer.live[i];
                    for (int w = 0; w < words; w++) {
                        long runNow = needs[v][w] & ~done[w];
                        after[w] |= runNow;
                        for (long bits = runNow; bits != 0; bits &= bits - 1) {
                            live += cost.made((w << 6) + Long.numberOfTrailingZeros(bits));
                        }
                    }
                    long peak = Math.max(layer.peak[i], live + cost.made(v));
                    if (peak >= bound) {
                        continue;
                    }
                    Precedence.set(after, v);
                    Integer seen = next.index.get(new Key(after));
                    if (seen != null) {
                        if (peak < next.peak[seen]) {
                            next.peak[seen] = peak;
                            visited.set(next.id[seen], layer.id[i], v);
                        }
                        continue;
                    }
                    if (visited.size() >= maxStates) {
                        return new Outcome(null, 0, visited.size(), false, n - moves);
                    }
                    live += cost.made(v) - cost.freed(done, v);
                    next.add(after, readyAfter(precedence, postponed, canRun, after, v), peak, live,
                            visited.add(layer.id[i], v));
                }
            }
            if (next.size() == 0) {
                return new Outcome(null, 0, visited.size(), true, n - moves);
            }
            layer = next;
        }
        int[] chosen = new int[moves];
        for (int id = layer.id[0], k = moves - 1; k >= 0; id = visited.parent[id], k--) {
            chosen[k] = visited.last[id];
        }
        return new Outcome(withPostponed(needs, chosen), moves == 0 ? cost.atStart() : layer.peak[0],
                visited.size(), true, n - moves);
    }

    /** The nodes ready once {@code node} has run, the postponed ones counted as run. */
    private static long[] readyAfter(Precedence precedence, long[] postponed, long[] ready, long[] after, int node) {
        long[] assumed = after.clone();
        for (int w = 0; w < assumed.length; w++) {
            assumed[w] |= postponed[w];
        }
        long[] next = ready.clone();
        next[node >>> 6] &= ~(1L << node);
        for (int s : precedence.successors(node)) {
            if (!Precedence.has(postponed, s) && precedence.ready(assumed, s)) {
                Precedence.set(next, s);
            }
        }
        return next;
    }

    /** The whole order: each postponed node right before the first chosen node that needs it. */
    private static int[] withPostponed(long[][] needs, int[] chosen) {
        int[] order = new int[needs.length];
        long[] done = new long[Precedence.words(needs.length)];
        int k = 0;
        for (int v : chosen) {
            // By index, which the model's order, a topological one, has them in.
            for (int p = Precedence.nextSet(needs[v], 0); p >= 0; p = Precedence.nextSet(needs[v], p + 1)) {
                if (!Precedence.has(done, p)) {
                    Precedence.set(done, p);
                    order[k++] = p;
                }
            }
            Precedence.set(done, v);
            order[k++] = v;
        }
        return order;
    }

    /** The sets of one size: each set, the nodes ready after it, its least peak so far and its live bytes. */
    private static final class Layer {
        final List<long[]> done = new ArrayList<>();
        final List<long[]> ready = new ArrayList<>();
        final Map<Key, Integer> index = new HashMap<>();
        long[] peak = new long[16];
        long[] live = new long[16];
        int[] id = new int[16];

        void add(long[] set, long[] canRun, long peakSoFar, long liveBytes, int globalId) {
            int i = done.size();
            if (i == peak.length) {
                peak = Arrays.copyOf(peak, i * 2);
                live = Arrays.copyOf(live, i * 2);
                id = Arrays.copyOf(id, i * 2);
            }
            done.add(set);
            ready.add(canRun);
            index.put(new Key(set), i);
            peak[i] = peakSoFar;
            live[i] = liveBytes;
            id[i] = globalId;
        }

        int size() {
            return done.size();
        }
    }

    /** A set of nodes as a hash key. */
    private static final class Key {
        private final long[] bits;
        private final int hash;

        Key(long[] bits) {
            this.bits = bits;
            this.hash = Arrays.hashCode(bits);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Arrays.equals(bits, key.bits);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** For each set visited: the set it was reached from and the node run last, to read the order back. */
    private static final class Visited {
        int[] parent = new int[64];
        int[] last = new int[64];
        private int size;

        int add(int from, int node) {
            if (size == parent.length) {
                parent = Arrays.copyOf(parent, size * 2);
                last = Arrays.copyOf(last, size * 2);
            }
            set(size, from, node);
            return size++;
        }

        void set(int id, int from, int node) {
            parent[id] = from;
            last[id] = node;
        }

        int size() {
            return size;
        }
    }
}
