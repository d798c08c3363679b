package dev.tflitearena.plan.tflite;

import java.util.Arrays;

/**
 * The allocations of an arena's active list filed by stretch of nodes, each stretch's in offset order, so
 * that a best-fit scan reads the allocations live near the one it places instead of every active one. An
 * allocation is filed under every stretch its lifetime {@code first..last} touches, clipped to the nodes
 * there are: no lifetime asked about reaches further, so clipping keeps every overlap. Stretches of several
 * nodes keep a long lifetime, such as a graph output's, filed a few times rather than once per node.
 *
 * <p>The scan's result depends only on which allocations overlap, not on the order of those at one offset:
 * only the first of them can end a gap, and all of them start it at the same place. So the allocations merged
 * from several stretches need sorting by offset alone.
 */
final class LiveByStretch {
    /** Nodes per stretch. */
    static final int STRETCH = 16;

    private final int nodes;
    /** By stretch: how many allocations are filed there, and their ids in offset order. */
    private final int[] counts;
    private final int[][] filed;
    /** The allocations by id: in the order they were added since the last {@link #clear}. */
    private final ArenaAllocs byId;
    /** The call of {@link #overlapping} that last met each id, to merge each allocation once. */
    private int[] seen;
    private int call;
    /** Ids met by the current call of {@link #overlapping}, in offset order. */
    private int[] merged;

    LiveByStretch(int nodes, int capacity) {
        this.nodes = nodes;
        int stretches = (nodes + STRETCH - 1) / STRETCH;
        counts = new int[stretches];
        filed = new int[stretches][];
        byId = new ArenaAllocs(capacity);
        seen = new int[capacity];
        merged = new int[capacity];
    }

    void clear() {
        Arrays.fill(counts, 0);
        byId.count = 0;
    }

    /** Whether an allocation starting at {@code first} can be filed here (see the class comment). */
    boolean covers(int first) {
        return first >= 0 && first < nodes;
    }

    /** Files {@code size} bytes at {@code offset} live at {@code first..last}; {@link #covers} must hold. */
    void add(long offset, long size, int first, int last) {
        int id = byId.count;
        byId.insert(id, offset, size, first, last);
        if (seen.length < byId.offset.length) {
            seen = Arrays.copyOf(seen, byId.offset.length);
            merged = Arrays.copyOf(merged, byId.offset.length);
        }
        seen[id] = 0;
        int stop = Math.min(last, nodes - 1) / STRETCH;
        for (int stretch = first / STRETCH; stretch <= stop; stretch++) {
            insert(stretch, id, offset);
        }
    }

    /**
     * Writes the offsets and ends of the allocations overlapping {@code first..last}, in offset order, into
     * the two arrays, and returns how many; or -1 when that would read as many allocations as {@code active}
     * holds, so that scanning the active list is no slower. {@link #covers} must hold for {@code first}.
     */
    int overlapping(int first, int last, int active, long[] overlapOffsets, long[] overlapEnds) {
        int start = first / STRETCH;
        int stop = Math.min(last, nodes - 1) / STRETCH;
        int reads = 0;
        for (int stretch = start; stretch <= stop; stretch++) {
            reads += counts[stretch];
        }
        if (reads >= active) {
            return -1;
        }
        if (++call == 0) {
            Arrays.fill(seen, 0);
            call = 1;
        }
        int count = 0;
        for (int stretch = start; stretch <= stop; stretch++) {
            int[] list = filed[stretch];
            for (int i = 0; i < counts[stretch]; i++) {
                int id = list[i];
                if (byId.last[id] >= first && byId.first[id] <= last && seen[id] != call) {
                    seen[id] = call;
                    count = insertByOffset(id, count);
                }
            }
        }
        for (int i = 0; i < count; i++) {
            int id = merged[i];
            overlapOffsets[i] = byId.offset[id];
            overlapEnds[i] = byId.offset[id] + byId.size[id];
        }
        return count;
    }

    /** Adds an id to the first {@code count} of {@link #merged}, kept in offset order; returns the new count. */
    private int insertByOffset(int id, int count) {
        long[] offsets = byId.offset;
        long offset = offsets[id];
        int at = count;
        while (at > 0 && offsets[merged[at - 1]] > offset) {
            merged[at] = merged[at - 1];
            at--;
        }
        merged[at] = id;
        return count + 1;
    }

    /** Files an id under a stretch after every allocation there at an offset not above its own. */
    private void insert(int stretch, int id, long offset) {
        int count = counts[stretch];
        int[] list = filed[stretch];
        if (list == null || list.length == count) {
            list = list == null ? new int[8] : Arrays.copyOf(list, count * 2);
            filed[stretch] = list;
        }
        int at = count;
        while (at > 0 && byId.offset[list[at - 1]] > offset) {
            at--;
        }
        System.arraycopy(list, at, list, at + 1, count - at);
        list[at] = id;
        counts[stretch] = count + 1;
    }
}
