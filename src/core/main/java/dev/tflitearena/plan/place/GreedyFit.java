package dev.tflitearena.plan.place;

import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.List;

/**
 * The loop every greedy placer here shares: buffers are placed one at a time, each into a gap between the
 * already placed buffers that live at the same time, walked in offset order (equal offsets in placing
 * order), or above all of them. Only arrays, sized once: the loop allocates nothing.
 */
public final class GreedyFit {

    /** How a gap is chosen among those a buffer fits in. */
    public enum Rule {
        /** The lowest gap, as TFLite Micro's GreedyMemoryPlanner takes it. */
        FIRST,
        /**
         * The tightest gap as TFLite's SimpleMemoryArena measures it: from the unaligned end below the gap, so
         * a gap that needed padding can lose to a later one of the same usable size.
         */
        ARENA_BEST,
        /** The tightest gap measured from its aligned start, as the GPU delegate's GreedyBySizeAssignment. */
        SMALLEST_GAP
    }

    private final long alignment;
    private final long[] size;
    private final int[] first;
    private final int[] last;
    private final long[] offsets;
    private final int[] byOffset;
    private int placed;

    GreedyFit(BufferSet buffers) {
        List<BufferSet.Buffer> list = buffers.buffers();
        int n = list.size();
        alignment = buffers.alignment();
        size = new long[n];
        first = new int[n];
        last = new int[n];
        offsets = new long[n];
        byOffset = new int[n];
        for (int i = 0; i < n; i++) {
            size[i] = list.get(i).size();
            first[i] = list.get(i).first();
            last[i] = list.get(i).last();
        }
    }

    /** Places every buffer of the set in {@code order} by {@code rule}. */
    public static long[] place(BufferSet buffers, int[] order, Rule rule) {
        GreedyFit fit = new GreedyFit(buffers);
        for (int i : order) {
            fit.fit(i, rule);
        }
        return fit.offsets();
    }

    /** The offsets as a solution, proven optimal when they meet the lower bound. */
    static Placer.Solution solution(BufferSet buffers, long[] offsets) {
        return new Placer.Solution(offsets, buffers.arenaBytes(offsets) == buffers.lowerBound());
    }

    /** Buffer {@code i} at a given offset; later buffers fit around it. */
    void put(int i, long offset) {
        if (size[i] == 0) {
            // An empty buffer shares no byte, but kept in the list it would split the gaps it sits in.
            offsets[i] = offset;
            return;
        }
        putListed(i, offset);
    }

    /**
     * As {@link #put}, but an empty buffer too joins the offset-ordered list, as every buffer does in TFLM's
     * GreedyMemoryPlanner: later buffers then see a gap end at its offset.
     */
    void putListed(int i, long offset) {
        offsets[i] = offset;
        int at = placed;
        while (at > 0 && offsets[byOffset[at - 1]] > offset) {
            byOffset[at] = byOffset[at - 1];
            at--;
        }
        byOffset[at] = i;
        placed++;
    }

    /**
     * Buffer {@code i} into the gap {@code rule} picks among those it fits in, else above all; an empty one at
     * 0, as SimpleMemoryArena puts it.
     */
    void fit(int i, Rule rule) {
        long end = 0;
        long best = -1;
        long bestFit = Long.MAX_VALUE;
        for (int k = 0; k < placed; k++) {
            int b = byOffset[k];
            if (last[b] < first[i] || first[b] > last[i]) {
                continue;
            }
            long start = alignUp(end);
            long gapEnd = offsets[b];
            if (start + size[i] <= gapEnd && gapEnd - start < bestFit) {
                best = start;
                if (rule == Rule.FIRST) {
                    break;
                }
                bestFit = gapEnd - (rule == Rule.ARENA_BEST ? end : start);
            }
            end = Math.max(end, gapEnd + size[b]);
        }
        put(i, size[i] == 0 ? 0 : best >= 0 ? best : alignUp(end));
    }

    long[] offsets() {
        return offsets.clone();
    }

    private long alignUp(long value) {
        return SimpleMemoryArena.alignUp(value, alignment);
    }
}
