package dev.tflitearena.plan.tflite;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * TFLite's SimpleMemoryArena placement rule: the active allocations are kept sorted by offset; a new one
 * takes the best-fitting gap between those that overlap it in time, or goes after all of them. The rule's
 * quirk is kept on purpose: the remembered fit of a gap is measured from the unaligned end of what precedes
 * it, so a gap that needed padding can lose to a later gap of the same usable size.
 */
public final class SimpleMemoryArena {
    /** One allocation: {@code first}/{@code last} are the inclusive node interval; a blank one has size 0. */
    record Alloc(long offset, long size, int first, int last) {
        static final Alloc BLANK = new Alloc(0, 0, -1, -1);
    }

    private final List<Alloc> active = new ArrayList<>();
    private long highWaterMark;

    /** Places {@code size} bytes live from node {@code first} to {@code last} inclusive. */
    Alloc allocate(long alignment, long size, int first, int last) {
        if (size == 0) {
            return new Alloc(0, 0, first, last);
        }
        long best = -1;
        long bestFit = Long.MAX_VALUE;
        long current = 0;
        for (Alloc a : active) {
            if (a.last < first || a.first > last) {
                continue;
            }
            long aligned = alignUp(current, alignment);
            if (aligned + size <= a.offset && a.offset - aligned < bestFit) {
                best = aligned;
                bestFit = a.offset - current;
            }
            current = Math.max(current, a.offset + a.size);
        }
        long offset = best >= 0 ? best : alignUp(current, alignment);
        highWaterMark = Math.max(highWaterMark, offset + size);
        Alloc alloc = new Alloc(offset, size, first, last);
        active.add(insertionPoint(offset), alloc);
        return alloc;
    }

    long highWaterMark() {
        return highWaterMark;
    }

    void resetAllocs() {
        active.clear();
    }

    /** Drops the allocations whose lifetime ended before {@code node}. */
    void purgeActiveAllocs(int node) {
        active.removeIf(a -> a.last < node);
    }

    /** Drops the allocations that start after {@code node}. */
    void purgeAfter(int node) {
        active.removeIf(a -> a.first > node);
    }

    /** Rebuilds the active list from a planner's records: those live at {@code node}, by offset. */
    void calculateActiveAllocs(Alloc[] records, int node) {
        active.clear();
        for (Alloc a : records) {
            if (a.first <= node && a.last >= node) {
                active.add(a);
            }
        }
        // std::sort is not stable, but allocations at one offset never change where a later one goes.
        active.sort(Comparator.comparingLong(Alloc::offset));
    }

    /** After every allocation at an offset not above {@code offset}, as std::upper_bound puts it. */
    private int insertionPoint(long offset) {
        int low = 0;
        int high = active.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (active.get(mid).offset <= offset) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    public static long alignUp(long value, long alignment) {
        long remainder = value % alignment;
        return remainder == 0 ? value : value + alignment - remainder;
    }
}
