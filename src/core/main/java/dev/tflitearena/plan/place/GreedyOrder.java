package dev.tflitearena.plan.place;

import dev.tflitearena.plan.tflite.GnuIntroSort;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/** Orders in which the greedy placers take a set's buffers, as indices into the set. */
public final class GreedyOrder {
    private GreedyOrder() {
    }

    /** Largest first; equal sizes in set order. */
    public static int[] bySizeDescending(BufferSet buffers) {
        return sorted(buffers, Comparator.comparingLong(b -> -b.size()));
    }

    /** Earliest first, then largest first. */
    static int[] byFirstStep(BufferSet buffers) {
        return sorted(buffers, Comparator.<BufferSet.Buffer>comparingInt(b -> b.first())
                .thenComparingLong(b -> -b.size()));
    }

    /** Longest lived first, then largest first. */
    static int[] byLifetimeDescending(BufferSet buffers) {
        return sorted(buffers, Comparator.<BufferSet.Buffer>comparingInt(b -> b.first() - b.last())
                .thenComparingLong(b -> -b.size()));
    }

    /**
     * ArenaPlanner's order: buffers live over every step first, by id, then largest first, then earliest
     * first. TFLite's ties among the rest follow its hash sets, which a bare set does not have.
     */
    public static int[] tflite(BufferSet buffers) {
        int lastStep = buffers.steps() - 1;
        Comparator<BufferSet.Buffer> whole = Comparator.comparing(b -> b.first() != 0 || b.last() != lastStep);
        return sorted(buffers, whole
                .thenComparingInt(b -> b.first() == 0 && b.last() == lastStep ? b.id() : 0)
                .thenComparingLong(b -> -b.size())
                .thenComparingInt(BufferSet.Buffer::first));
    }

    /**
     * The GPU delegate's GreedyByBreadthAssignment order: steps by breadth (the bytes live there) descending,
     * each step's buffers by size descending, every buffer where it is first met. Both sorts are
     * {@code std::sort}, the steps' on a reversed view, so ties fall as libstdc++ leaves them.
     */
    static int[] byBreadth(BufferSet buffers) {
        List<BufferSet.Buffer> list = buffers.buffers();
        int tasks = list.stream().mapToInt(b -> b.last() + 1).max().orElse(0);
        long[] breadth = new long[tasks + 1];
        for (BufferSet.Buffer b : list) {
            breadth[b.first()] += b.size();
            breadth[b.last() + 1] -= b.size();
        }
        for (int t = 1; t < tasks; t++) {
            breadth[t] += breadth[t - 1];
        }
        int[] reversed = IntStream.range(0, tasks).map(t -> tasks - 1 - t).toArray();
        GnuIntroSort.sort(reversed, 0, tasks, (x, y) -> breadth[x] < breadth[y]);
        int[] order = new int[list.size()];
        int count = 0;
        boolean[] taken = new boolean[list.size()];
        for (int k = tasks - 1; k >= 0; k--) {
            int task = reversed[k];
            int[] profile = IntStream.range(0, list.size())
                    .filter(i -> list.get(i).first() <= task && task <= list.get(i).last()).toArray();
            GnuIntroSort.sort(profile, 0, profile.length, (x, y) -> list.get(x).size() > list.get(y).size());
            for (int i : profile) {
                if (!taken[i]) {
                    taken[i] = true;
                    order[count++] = i;
                }
            }
        }
        return order;
    }

    private static int[] sorted(BufferSet buffers, Comparator<BufferSet.Buffer> order) {
        List<BufferSet.Buffer> list = buffers.buffers();
        return IntStream.range(0, list.size()).boxed()
                .sorted((x, y) -> order.compare(list.get(x), list.get(y)))
                .mapToInt(Integer::intValue).toArray();
    }
}
