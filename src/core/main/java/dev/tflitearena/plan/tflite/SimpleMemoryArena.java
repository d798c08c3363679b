package dev.tflitearena.plan.tflite;

/**
 * TFLite's SimpleMemoryArena placement rule: the active allocations are kept sorted by offset; a new one
 * takes the best-fitting gap between those that overlap it in time, or goes after all of them. The rule's
 * quirk is kept on purpose: the remembered fit of a gap is measured from the unaligned end of what precedes
 * it, so a gap that needed padding can lose to a later gap of the same usable size.
 */
public final class SimpleMemoryArena {
    private final ArenaAllocs active;
    private long highWaterMark;

    SimpleMemoryArena() {
        this(16);
    }

    /** An arena whose active list holds {@code capacity} allocations before it has to grow. */
    SimpleMemoryArena(int capacity) {
        active = new ArenaAllocs(capacity);
    }

    /** Places {@code size} bytes live from node {@code first} to {@code last} inclusive; returns the offset. */
    long allocate(long alignment, long size, int first, int last) {
        if (size == 0) {
            return 0;
        }
        long[] offsets = active.offset;
        long[] sizes = active.size;
        int[] firsts = active.first;
        int[] lasts = active.last;
        long best = -1;
        long bestFit = Long.MAX_VALUE;
        long current = 0;
        for (int i = 0; i < active.count; i++) {
            if (lasts[i] < first || firsts[i] > last) {
                continue;
            }
            long offset = offsets[i];
            // Aligning only moves the start up: a gap too small before aligning needs no division to reject.
            if (current + size <= offset) {
                long aligned = alignUp(current, alignment);
                if (aligned + size <= offset && offset - aligned < bestFit) {
                    best = aligned;
                    bestFit = offset - current;
                    if (bestFit == size) {
                        // An exact fit: a later gap would need to be narrower than size to replace it.
                        break;
                    }
                }
            }
            current = Math.max(current, offset + sizes[i]);
        }
        long offset = best >= 0 ? best : alignUp(current, alignment);
        highWaterMark = Math.max(highWaterMark, offset + size);
        active.insert(insertionPoint(offset), offset, size, first, last);
        return offset;
    }

    long highWaterMark() {
        return highWaterMark;
    }

    void resetAllocs() {
        active.count = 0;
    }

    /** Drops the allocations whose lifetime ended before {@code node}. */
    void purgeActiveAllocs(int node) {
        int kept = 0;
        for (int i = 0; i < active.count; i++) {
            if (active.last[i] >= node) {
                active.move(i, kept++);
            }
        }
        active.count = kept;
    }

    /** Drops the allocations that start after {@code node}. */
    void purgeAfter(int node) {
        int kept = 0;
        for (int i = 0; i < active.count; i++) {
            if (active.first[i] <= node) {
                active.move(i, kept++);
            }
        }
        active.count = kept;
    }

    /** Rebuilds the active list from a planner's records, one row per tensor: those live at {@code node}. */
    void calculateActiveAllocs(ArenaAllocs records, int node) {
        active.count = 0;
        for (int t = 0; t < records.count; t++) {
            if (records.first[t] <= node && records.last[t] >= node) {
                // std::sort is not stable, but allocations at one offset never change where a later one goes.
                active.insert(insertionPoint(records.offset[t]), records.offset[t], records.size[t],
                        records.first[t], records.last[t]);
            }
        }
    }

    /** After every allocation at an offset not above {@code offset}, as std::upper_bound puts it. */
    private int insertionPoint(long offset) {
        int low = 0;
        int high = active.count;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (active.offset[mid] <= offset) {
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
