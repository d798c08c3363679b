package dev.tflitearena.plan.tflite;

/**
 * TFLite's SimpleMemoryArena placement rule: the active allocations are kept sorted by offset; a new one
 * takes the best-fitting gap between those that overlap it in time, or goes after all of them. The rule's
 * quirk is kept on purpose: the remembered fit of a gap is measured from the unaligned end of what precedes
 * it, so a gap that needed padding can lose to a later gap of the same usable size.
 */
public final class SimpleMemoryArena {
    private final ArenaAllocs active;
    /** The active list by stretch of nodes; null for an arena of no nodes. */
    private final LiveByStretch byStretch;
    /** Whether {@link #byStretch} holds every active allocation: it cannot file one that starts at no node. */
    private boolean filedByStretch;
    /** The offsets and ends of the allocations that overlap the one being placed, in offset order. */
    private long[] overlapOffsets;
    private long[] overlapEnds;
    private long highWaterMark;

    /**
     * An arena whose active list holds {@code capacity} allocations before it has to grow, filed by stretch
     * of nodes (see {@link LiveByStretch}) over {@code nodes} nodes when that is more than 0.
     */
    SimpleMemoryArena(int capacity, int nodes) {
        active = new ArenaAllocs(capacity);
        byStretch = nodes > 0 ? new LiveByStretch(nodes, capacity) : null;
        filedByStretch = byStretch != null;
        overlapOffsets = new long[capacity];
        overlapEnds = new long[capacity];
    }

    /** Places {@code size} bytes live from node {@code first} to {@code last} inclusive; returns the offset. */
    long allocate(long alignment, long size, int first, int last) {
        if (size == 0) {
            return 0;
        }
        if (overlapOffsets.length < active.count) {
            overlapOffsets = new long[active.offset.length];
            overlapEnds = new long[active.offset.length];
        }
        int overlaps = filedByStretch && byStretch.covers(first)
                ? byStretch.overlapping(first, last, active.count, overlapOffsets, overlapEnds) : -1;
        if (overlaps < 0) {
            overlaps = scanOverlapping(first, last);
        }
        long best = -1;
        long bestFit = Long.MAX_VALUE;
        long current = 0;
        for (int i = 0; i < overlaps; i++) {
            long offset = overlapOffsets[i];
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
            current = Math.max(current, overlapEnds[i]);
        }
        long offset = best >= 0 ? best : alignUp(current, alignment);
        highWaterMark = Math.max(highWaterMark, offset + size);
        insert(offset, size, first, last);
        return offset;
    }

    /** The active allocations overlapping {@code first..last} into the overlap arrays; returns how many. */
    private int scanOverlapping(int first, int last) {
        int count = 0;
        for (int i = 0; i < active.count; i++) {
            if (active.last[i] >= first && active.first[i] <= last) {
                overlapOffsets[count] = active.offset[i];
                overlapEnds[count++] = active.offset[i] + active.size[i];
            }
        }
        return count;
    }

    private void insert(long offset, long size, int first, int last) {
        active.insert(insertionPoint(offset), offset, size, first, last);
        file(offset, size, first, last);
    }

    private void file(long offset, long size, int first, int last) {
        if (filedByStretch) {
            filedByStretch = byStretch.covers(first);
            if (filedByStretch) {
                byStretch.add(offset, size, first, last);
            }
        }
    }

    /** Files the active list by stretch anew, after allocations left it. */
    private void refile() {
        if (byStretch == null) {
            return;
        }
        byStretch.clear();
        filedByStretch = true;
        for (int i = 0; i < active.count; i++) {
            file(active.offset[i], active.size[i], active.first[i], active.last[i]);
        }
    }

    long highWaterMark() {
        return highWaterMark;
    }

    void resetAllocs() {
        active.count = 0;
        refile();
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
        refile();
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
        refile();
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
        refile();
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
