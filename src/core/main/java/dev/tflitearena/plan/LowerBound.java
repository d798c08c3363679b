package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

/**
 * No placement can use less arena than the most bytes live at one moment. For a subgraph's rw arena the
 * moments are its nodes and the lifetimes are TFLite's: pinned graph inputs and outputs, temporaries at their
 * node, in-place aliases counted once, with their root; or those with graph inputs released after their last
 * consumer, when the options say so.
 */
public final class LowerBound {
    private LowerBound() {
    }

    /** How far an arena is above the lower bound: arena / bound - 1; 0 for an empty bound. */
    public static double gap(long arenaBytes, long lowerBound) {
        return lowerBound == 0 ? 0 : (double) arenaBytes / lowerBound - 1;
    }

    /** The most bytes live at one time step, for buffers live over the inclusive steps first..last. */
    public static long of(long[] bytes, int[] first, int[] last, int steps) {
        long[] live = live(bytes, first, last, steps);
        return live[fullest(live, steps)];
    }

    /** The first time step at which the most bytes are live: where {@link #of(long[], int[], int[], int)} is met. */
    public static int peakStep(long[] bytes, int[] first, int[] last, int steps) {
        return fullest(live(bytes, first, last, steps), steps);
    }

    private static int fullest(long[] live, int steps) {
        int peak = 0;
        for (int step = 1; step < steps; step++) {
            if (live[step] > live[peak]) {
                peak = step;
            }
        }
        return peak;
    }

    /** The bytes live at each of the steps (at least one). */
    private static long[] live(long[] bytes, int[] first, int[] last, int steps) {
        long[] live = new long[Math.max(steps, 1) + 1];
        for (int i = 0; i < bytes.length; i++) {
            live[first[i]] += bytes[i];
            live[last[i] + 1] -= bytes[i];
        }
        for (int step = 1; step < live.length; step++) {
            live[step] += live[step - 1];
        }
        return live;
    }

    /**
     * The rw arena's lower bound under the options' lifetime rules: TFLite's, or with graph inputs released
     * after their last consumer ({@link Graph.Options#releaseInputs()}).
     */
    public static long of(Subgraph subgraph, Graph.Options options) {
        return of(Lifetimes.of(subgraph, options));
    }

    /** The most rw bytes live at one node. */
    static long of(Lifetimes lifetimes) {
        Subgraph subgraph = lifetimes.subgraph();
        int count = subgraph.tensors().size();
        long[] bytes = new long[count];
        int[] first = new int[count];
        int[] last = new int[count];
        for (Tensor tensor : subgraph.tensors()) {
            int t = tensor.index();
            if (tensor.allocation() != Allocation.ARENA_RW || lifetimes.allocNode(t) == Lifetimes.NOT_ASSIGNED
                    || lifetimes.aliasRoot(t) >= 0) {
                continue;
            }
            bytes[t] = tensor.bytes();
            first[t] = lifetimes.allocNode(t);
            last[t] = lifetimes.lastNode(t);
        }
        return of(bytes, first, last, Math.max(lifetimes.nodeCount(), 1));
    }
}
