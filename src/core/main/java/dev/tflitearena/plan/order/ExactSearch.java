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
 */
final class ExactSearch {
    /**
     * @param order    the order of least peak, below the bound; null when no order beats the bound
     * @param peak     its peak
     * @param states   the sets of nodes visited
     * @param complete false when the search stopped at its limit of sets, proving nothing
     */
    record Outcome(int[] order, long peak, int states, boolean complete) {
    }

    private ExactSearch() {
    }

    /** The order of least peak below {@code bound}, visiting at most {@code maxStates} sets of nodes. */
    static Outcome run(Precedence precedence, LiveBytes cost, long bound, int maxStates) {
        int n = precedence.nodes();
        int words = Precedence.words(n);
        Visited visited = new Visited();
        Layer layer = new Layer();
        layer.add(new long[words], precedence.sources(), 0, cost.atStart(), visited.add(-1, -1));
        for (int size = 0; size < n; size++) {
            Layer next = new Layer();
            for (int i = 0; i < layer.size(); i++) {
                long[] done = layer.done.get(i);
                long[] canRun = layer.ready.get(i);
                for (int v = Precedence.nextSet(canRun, 0); v >= 0; v = Precedence.nextSet(canRun, v + 1)) {
                    long peak = Math.max(layer.peak[i], layer.live[i] + cost.made(v));
                    if (peak >= bound) {
                        continue;
                    }
                    long[] after = done.clone();
                    long[] nextReady = canRun.clone();
                    precedence.run(after, nextReady, v);
                    Integer seen = next.index.get(new Key(after));
                    if (seen != null) {
                        if (peak < next.peak[seen]) {
                            next.peak[seen] = peak;
                            visited.set(next.id[seen], layer.id[i], v);
                        }
                        continue;
                    }
                    if (visited.size() >= maxStates) {
                        return new Outcome(null, 0, visited.size(), false);
                    }
                    long live = layer.live[i] + cost.made(v) - cost.freed(done, v);
                    next.add(after, nextReady, peak, live, visited.add(layer.id[i], v));
                }
            }
            if (next.size() == 0) {
                return new Outcome(null, 0, visited.size(), true);
            }
            layer = next;
        }
        int[] order = new int[n];
        for (int id = layer.id[0], k = n - 1; k >= 0; id = visited.parent[id], k--) {
            order[k] = visited.last[id];
        }
        return new Outcome(order, n == 0 ? cost.atStart() : layer.peak[0], visited.size(), true);
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
