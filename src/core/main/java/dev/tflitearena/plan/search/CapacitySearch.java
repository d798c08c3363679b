package dev.tflitearena.plan.search;

import java.util.Arrays;

/**
 * Decides whether a buffer set fits in a capacity, by depth-first search over canonical placements, after
 * MiniMalloc (Moffitt, ASPLOS 2023). A placement is canonical when each buffer sits right on the highest
 * aligned end of the buffers below it that it overlaps in time, and the buffers, taken by offset and then by
 * rank, are placed in that order; every placement can be pushed down and reordered into one, so searching
 * only these loses nothing. Next to place is any unplaced buffer at its lowest possible offset, lowest first,
 * equal offsets by rank.
 *
 * <p>Pruning: a buffer is not placed at or above where another could end (the other fits in the gap below,
 * so a search that puts it there first does better or equal); a buffer with nothing left to place above it
 * is the only choice tried once it fails (its offset cannot change); a partial placement dies when some
 * section's unplaced buffers, stacked above the section's floor, would pass the capacity. When no unplaced
 * buffer crosses a boundary between sections, the two sides are solved on their own, each in a fresh order.
 *
 * <p>State changes are written to a trail and undone on the way back, and the candidate and part lists live
 * on stacks, so a search node allocates nothing.
 */
final class CapacitySearch {
    enum Outcome { FITS, DOES_NOT_FIT, GAVE_UP }

    private static final int FOUND = 0;
    private static final int NONE = 1;
    private static final int STOP = 2;

    private final TimeSections sections;
    private final int n;
    /** Per buffer, where it is placed, or -1. */
    private final long[] offset;
    /** Per buffer, the lowest aligned offset clear of the placed buffers it overlaps. */
    private final long[] minOffset;
    /** Per section, no unplaced buffer of it can go lower: its placed buffers end there, or all start higher. */
    private final long[] floor;
    /** Per section, the room its unplaced buffers take. */
    private final long[] total;
    /** Per boundary between sections s and s+1, the unplaced buffers live on both sides. */
    private final int[] cuts;
    private final long[] solution;
    /** Sections whose floor may rise after a placement, marked with the placement's stamp. */
    private final int[] touched;
    private final int[] touchedMark;
    private int touchedStamp;
    /** Per section, an unplaced buffer last seen starting no higher than the floor; only a hint. */
    private final int[] witness;

    /** Old values: an index below n is a buffer's minimum offset, above it a section's floor. */
    private int[] trailIndex = new int[256];
    private long[] trailValue = new long[256];
    private int trailSize;
    /** Candidates of the open nodes: lowest offset times n plus rank. */
    private long[] keys = new long[256];
    private int keyTop;
    /** The buffers of the open parts, each part in its order: a buffer's rank is its place in its part. */
    private int[] lists = new int[256];
    private int listTop;

    private long capacity;
    private long roomCapacity;
    private SearchOrder order;
    private long nodes;
    private long nextCapacity;
    private long nodeLimit;
    private long deadline;

    CapacitySearch(TimeSections sections) {
        this.sections = sections;
        n = sections.buffers();
        offset = new long[n];
        minOffset = new long[n];
        solution = new long[n];
        floor = new long[sections.sections()];
        total = new long[sections.sections()];
        cuts = new int[Math.max(sections.sections() - 1, 0)];
        touched = new int[sections.sections()];
        touchedMark = new int[sections.sections()];
        witness = new int[sections.sections()];
        for (int s = 0; s < witness.length; s++) {
            witness[s] = sections.members[s][0];
        }
    }

    /**
     * Searches for a placement within {@code capacity} bytes with ties broken in {@code order}, giving up
     * after {@code nodeLimit} nodes or at {@code deadline} (System.nanoTime).
     */
    Outcome run(long capacity, SearchOrder order, long nodeLimit, long deadline) {
        this.capacity = capacity;
        this.roomCapacity = TimeSections.alignUp(capacity, sections.alignment());
        this.order = order;
        this.nodeLimit = nodeLimit;
        this.deadline = deadline;
        reset();
        int result = solveParts(0, sections.sections(), 0, n);
        return result == FOUND ? Outcome.FITS : result == NONE ? Outcome.DOES_NOT_FIT : Outcome.GAVE_UP;
    }

    /** The placement of the last search that fit, per searched buffer. */
    long[] solution() {
        return solution.clone();
    }

    long nodes() {
        return nodes;
    }

    /**
     * After a search that did not fit: the least capacity at which it could have gone otherwise. Each dead end
     * was a bound passing the capacity, and the search only looks at the capacity there, so any capacity below
     * the lowest such bound runs the same search to the same end: none of them fits either.
     */
    long nextCapacity() {
        return nextCapacity;
    }

    private void reset() {
        nodes = 0;
        nextCapacity = Long.MAX_VALUE;
        Arrays.fill(offset, -1);
        Arrays.fill(minOffset, 0);
        Arrays.fill(floor, 0);
        Arrays.fill(total, 0);
        Arrays.fill(cuts, 0);
        for (int b = 0; b < n; b++) {
            for (int s = sections.firstSection[b]; s <= sections.lastSection[b]; s++) {
                total[s] += sections.room[b];
            }
            for (int s = sections.firstSection[b]; s < sections.lastSection[b]; s++) {
                cuts[s]++;
            }
        }
        trailSize = 0;
        keyTop = 0;
        listTop = 0;
        ensureList(n);
        for (int b = 0; b < n; b++) {
            lists[listTop++] = b;
        }
    }

    /**
     * Splits sections lo..hi-1 where no unplaced buffer crosses, and searches each side with the unplaced
     * buffers of lists[from..to) that live there; all sides must fit.
     */
    private int solveParts(int lo, int hi, int from, int to) {
        int start = lo;
        for (int s = lo; s < hi; s++) {
            if (s + 1 < hi && cuts[s] > 0) {
                continue;
            }
            int partFrom = listTop;
            ensureList(to - from);
            for (int i = from; i < to; i++) {
                int b = lists[i];
                if (offset[b] < 0 && sections.firstSection[b] <= s && sections.lastSection[b] >= start) {
                    lists[listTop++] = b;
                }
            }
            order.sort(lists, partFrom, listTop, sections, total);
            int result = listTop == partFrom ? FOUND : search(start, s + 1, partFrom, listTop, 0, -1);
            listTop = partFrom;
            if (result != FOUND) {
                return result;
            }
            start = s + 1;
        }
        return FOUND;
    }

    /**
     * One node: the part over sections lo..hi-1 whose buffers are lists[from..to), the last placed at
     * {@code lastOffset} with rank {@code lastRank}.
     */
    private int search(int lo, int hi, int from, int to, long lastOffset, int lastRank) {
        if (++nodes > nodeLimit || ((nodes & 15) == 0 && System.nanoTime() - deadline > 0)) {
            return STOP;
        }
        long minHeight = Long.MAX_VALUE;
        boolean done = true;
        for (int i = from; i < to; i++) {
            int b = lists[i];
            if (offset[b] < 0) {
                long end = Math.max(minOffset[b], lastOffset) + sections.size[b];
                if (end > capacity) {
                    overflow(end);
                    return NONE;
                }
                minHeight = Math.min(minHeight, minOffset[b] + sections.size[b]);
                done = false;
            }
        }
        if (done) {
            return FOUND;
        }
        // Canonical order: no lower, or as low and later in rank, than the last placed.
        int keyFrom = keyTop;
        ensureKeys(to - from);
        for (int i = from; i < to; i++) {
            int b = lists[i];
            long at = minOffset[b];
            int rank = i - from;
            if (offset[b] < 0 && at < minHeight && (at > lastOffset || (at == lastOffset && rank > lastRank))) {
                keys[keyTop++] = at * n + rank;
            }
        }
        int keyTo = keyTop;
        Arrays.sort(keys, keyFrom, keyTo);
        int result = NONE;
        for (int k = keyFrom; k < keyTo && result == NONE; k++) {
            long at = keys[k] / n;
            int rank = (int) (keys[k] % n);
            int b = lists[from + rank];
            int mark = trailSize;
            boolean hatless = place(b, at);
            boolean split = false;
            for (int s = sections.firstSection[b]; s < sections.lastSection[b]; s++) {
                split |= --cuts[s] == 0;
            }
            if (fits(lo, hi, at)) {
                result = split ? solveParts(lo, hi, from, to) : search(lo, hi, from, to, at, rank);
            }
            for (int s = sections.firstSection[b]; s < sections.lastSection[b]; s++) {
                cuts[s]++;
            }
            unplace(b, mark);
            if (hatless) {
                break;
            }
        }
        keyTop = keyFrom;
        return result;
    }

    /**
     * Puts b at {@code at} and raises what it bounds: the floors of its sections, the lowest offsets of the
     * unplaced buffers it overlaps, and the floor of any section whose unplaced buffers now all start higher.
     * True when no unplaced buffer overlaps b.
     */
    private boolean place(int b, long at) {
        offset[b] = at;
        solution[b] = at;
        long top = at + sections.room[b];
        for (int s = sections.firstSection[b]; s <= sections.lastSection[b]; s++) {
            record(n + s, floor[s]);
            floor[s] = top;
            total[s] -= sections.room[b];
        }
        boolean hatless = true;
        int touchedCount = 0;
        touchedStamp++;
        for (int u : sections.overlaps[b]) {
            if (offset[u] >= 0) {
                continue;
            }
            hatless = false;
            if (minOffset[u] < top) {
                record(u, minOffset[u]);
                minOffset[u] = top;
                // A floor already at u's new lowest offset cannot rise: u starts no higher than it.
                for (int s = sections.firstSection[u]; s <= sections.lastSection[u]; s++) {
                    if (floor[s] < top && touchedMark[s] != touchedStamp) {
                        touchedMark[s] = touchedStamp;
                        touched[touchedCount++] = s;
                    }
                }
            }
        }
        for (int t = 0; t < touchedCount; t++) {
            raiseFloor(touched[t], at);
        }
        return hatless;
    }

    /**
     * Lifts the floor of section s to the lowest offset any of its unplaced buffers can take, when that is
     * above {@code at}: the checks below this node never look lower than their own offset, which only grows.
     * The scan stops at the first buffer that keeps the floor down; the last one found is tried first, as it
     * usually still does.
     */
    private void raiseFloor(int s, long at) {
        long keep = Math.max(floor[s], at);
        int w = witness[s];
        if (offset[w] < 0 && minOffset[w] <= keep) {
            return;
        }
        long lowest = Long.MAX_VALUE;
        for (int u : sections.members[s]) {
            if (offset[u] < 0) {
                lowest = Math.min(lowest, minOffset[u]);
                if (lowest <= keep) {
                    witness[s] = u;
                    return;
                }
            }
        }
        if (lowest != Long.MAX_VALUE) {
            record(n + s, floor[s]);
            floor[s] = lowest;
        }
    }

    private void unplace(int b, int mark) {
        while (trailSize > mark) {
            trailSize--;
            int i = trailIndex[trailSize];
            if (i < n) {
                minOffset[i] = trailValue[trailSize];
            } else {
                floor[i - n] = trailValue[trailSize];
            }
        }
        for (int s = sections.firstSection[b]; s <= sections.lastSection[b]; s++) {
            total[s] += sections.room[b];
        }
        offset[b] = -1;
    }

    /**
     * Every section's unplaced buffers fit stacked between its floor (no lower than the last offset) and the
     * capacity, the topmost taking only its size, not its aligned room.
     */
    private boolean fits(int lo, int hi, long at) {
        for (int s = lo; s < hi; s++) {
            if (total[s] == 0) {
                continue;
            }
            long height = Math.max(at, floor[s]) + total[s];
            if (height > roomCapacity) {
                overflow(height - sections.alignment() + 1);
                return false;
            }
            if (height > capacity) {
                long needed = height - largestSlack(s);
                if (needed > capacity) {
                    overflow(needed);
                    return false;
                }
            }
        }
        return true;
    }

    /** The most an unplaced buffer of section s gains from being on top: its room less its size. */
    private long largestSlack(int s) {
        long slack = 0;
        for (int u : sections.members[s]) {
            if (offset[u] < 0) {
                slack = Math.max(slack, sections.room[u] - sections.size[u]);
            }
        }
        return slack;
    }

    /** Notes a dead end that a capacity of {@code needed} bytes would not have met. */
    private void overflow(long needed) {
        nextCapacity = Math.min(nextCapacity, needed);
    }

    private void record(int index, long value) {
        if (trailSize == trailIndex.length) {
            trailIndex = Arrays.copyOf(trailIndex, trailSize * 2);
            trailValue = Arrays.copyOf(trailValue, trailSize * 2);
        }
        trailIndex[trailSize] = index;
        trailValue[trailSize++] = value;
    }

    private void ensureKeys(int more) {
        if (keyTop + more > keys.length) {
            keys = Arrays.copyOf(keys, Math.max(keys.length * 2, keyTop + more));
        }
    }

    private void ensureList(int more) {
        if (listTop + more > lists.length) {
            lists = Arrays.copyOf(lists, Math.max(lists.length * 2, listTop + more));
        }
    }
}
