package dev.tflitearena.plan.order;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Orders that are quick to make, for graphs too large for the exact search: the model's own, least peak
 * first (of the nodes ready, the one that adds the fewest bytes at its step, then leaves the fewest live),
 * breadth first (nodes in the order they became ready) and depth first (a node's successors as soon as they
 * are ready). Each is a topological order of the precedence.
 */
final class Portfolio {
    static final String MODEL = "model";

    private Portfolio() {
    }

    /** The orders by name, the model's own first. */
    static Map<String, int[]> orders(Precedence precedence, LiveBytes cost) {
        Map<String, int[]> orders = new LinkedHashMap<>();
        int[] own = new int[precedence.nodes()];
        for (int v = 0; v < own.length; v++) {
            own[v] = v;
        }
        orders.put(MODEL, own);
        orders.put("least-peak-first", leastPeakFirst(precedence, cost));
        orders.put("breadth-first", byQueue(precedence, false));
        orders.put("depth-first", byQueue(precedence, true));
        return orders;
    }

    private static int[] leastPeakFirst(Precedence precedence, LiveBytes cost) {
        int n = precedence.nodes();
        long[] done = new long[Precedence.words(n)];
        long[] ready = precedence.sources();
        int[] order = new int[n];
        long live = cost.atStart();
        for (int k = 0; k < n; k++) {
            int best = -1;
            long bestPeak = 0;
            long bestAfter = 0;
            for (int v = Precedence.nextSet(ready, 0); v >= 0; v = Precedence.nextSet(ready, v + 1)) {
                long peak = live + cost.made(v);
                long after = peak - cost.freed(done, v);
                if (best < 0 || peak < bestPeak || (peak == bestPeak && after < bestAfter)) {
                    best = v;
                    bestPeak = peak;
                    bestAfter = after;
                }
            }
            order[k] = best;
            live = bestAfter;
            precedence.run(done, ready, best);
        }
        return order;
    }

    /** Kahn's algorithm over a queue, or over a stack for {@code depthFirst}; the lowest index first among equals. */
    private static int[] byQueue(Precedence precedence, boolean depthFirst) {
        int n = precedence.nodes();
        long[] done = new long[Precedence.words(n)];
        Deque<Integer> pending = new ArrayDeque<>();
        long[] ready = precedence.sources();
        for (int v = Precedence.nextSet(ready, 0); v >= 0; v = Precedence.nextSet(ready, v + 1)) {
            pending.addLast(v);
        }
        int[] order = new int[n];
        for (int k = 0; k < n; k++) {
            int v = pending.removeFirst();
            order[k] = v;
            Precedence.set(done, v);
            int[] successors = precedence.successors(v);
            for (int i = 0; i < successors.length; i++) {
                int w = successors[depthFirst ? successors.length - 1 - i : i];
                if (precedence.ready(done, w)) {
                    if (depthFirst) {
                        pending.addFirst(w);
                    } else {
                        pending.addLast(w);
                    }
                }
            }
        }
        return order;
    }
}
