package dev.tflitearena.plan.search;

import dev.tflitearena.plan.place.BufferSet;

import java.util.List;

/**
 * An order in which {@link CapacitySearch} breaks ties between buffers that could go equally low: MiniMalloc's
 * preorders, built from a buffer's total (the unplaced bytes of its fullest section, as they stand when a part
 * of the problem is cut off to be solved alone), its width (time live, in the source's clock: steps renumbered
 * from times would rank widths wrongly) and its area (bytes times width), each
 * largest first, then set order. A search stuck in one order often flies in another, so they take turns.
 */
final class SearchOrder {
    private final long[][] keys;
    private final long[] total;
    private final int[] scratch;

    private SearchOrder(long[] total, long[]... keys) {
        this.total = total;
        this.keys = keys;
        scratch = new int[total.length];
    }

    /** MiniMalloc's three: width, area, total; total, area, width; total, width, area. */
    static List<SearchOrder> all(TimeSections sections) {
        int n = sections.buffers();
        long[] width = new long[n];
        long[] area = new long[n];
        for (int b = 0; b < n; b++) {
            BufferSet.Buffer buffer = sections.set.buffers().get(sections.index[b]);
            width[b] = sections.set.duration(buffer);
            area[b] = width[b] * sections.size[b];
        }
        // Filled in by each sort, so the three can share it.
        long[] total = new long[n];
        return List.of(new SearchOrder(total, width, area, total), new SearchOrder(total, total, area, width),
                new SearchOrder(total, total, width, area));
    }

    /** Sorts buffers[from..to) first to last, given the unplaced bytes of each section. */
    void sort(int[] buffers, int from, int to, TimeSections sections, long[] sectionTotal) {
        for (int i = from; i < to; i++) {
            int b = buffers[i];
            total[b] = 0;
            for (int s = sections.firstSection[b]; s <= sections.lastSection[b]; s++) {
                total[b] = Math.max(total[b], sectionTotal[s]);
            }
        }
        mergeSort(buffers, from, from, to);
    }

    /** Sorts buffers[from..to), a piece of the range that starts at {@code base}, through scratch[from-base..]. */
    private void mergeSort(int[] buffers, int base, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(buffers, base, from, middle);
        mergeSort(buffers, base, middle, to);
        System.arraycopy(buffers, from, scratch, from - base, to - from);
        int left = from - base;
        int right = middle - base;
        for (int i = from; i < to; i++) {
            boolean takeLeft = right == to - base
                    || (left < middle - base && before(scratch[left], scratch[right]));
            buffers[i] = scratch[takeLeft ? left++ : right++];
        }
    }

    /** Whether a comes no later than b. */
    private boolean before(int a, int b) {
        for (long[] key : keys) {
            if (key[a] != key[b]) {
                return key[a] > key[b];
            }
        }
        return a <= b;
    }
}
