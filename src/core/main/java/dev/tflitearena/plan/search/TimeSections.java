package dev.tflitearena.plan.search;

import dev.tflitearena.plan.place.BufferSet;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The shape of a buffer set as the exact search sees it: the buffers that need memory, numbered 0..n-1, and
 * the time sections, the steps where some buffer ends (MiniMalloc's cross sections). The buffers live at any
 * step are all still live at the next section, so two buffers overlap in time exactly when they share a
 * section, and a buffer's sections are consecutive. Sizes are kept twice: the real size, which bounds the
 * arena, and the size rounded up to the alignment, the room a buffer takes below another, since offsets are
 * aligned.
 */
final class TimeSections {
    final BufferSet set;
    /** For each searched buffer, its position in the set. */
    final int[] index;
    final long[] size;
    final long[] room;
    /** Sections spanned by each buffer, inclusive. */
    final int[] firstSection;
    final int[] lastSection;
    /** Buffers live in each section. */
    final int[][] members;
    /** Buffers that overlap each buffer in time. */
    final int[][] overlaps;

    private TimeSections(BufferSet set, int[] index) {
        this.set = set;
        this.index = index;
        int n = index.length;
        size = new long[n];
        room = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int b = 0; b < n; b++) {
            BufferSet.Buffer buffer = set.buffers().get(index[b]);
            size[b] = buffer.size();
            room[b] = alignUp(buffer.size(), set.alignment());
            first[b] = buffer.first();
            last[b] = buffer.last();
        }
        int[] steps = Arrays.stream(last).sorted().distinct().toArray();
        firstSection = new int[n];
        lastSection = new int[n];
        for (int b = 0; b < n; b++) {
            int at = Arrays.binarySearch(steps, first[b]);
            firstSection[b] = at >= 0 ? at : -at - 1;
            at = Arrays.binarySearch(steps, last[b]);
            lastSection[b] = at >= 0 ? at : -at - 2;
        }
        members = membersOf(steps.length);
        overlaps = overlapsOf(first, last);
    }

    /** The buffers of {@code set} with bytes to place; empty ones can go anywhere and are left out. */
    static TimeSections of(BufferSet set) {
        int[] index = IntStream.range(0, set.buffers().size())
                .filter(i -> set.buffers().get(i).size() > 0).toArray();
        return new TimeSections(set, index);
    }

    int buffers() {
        return index.length;
    }

    int sections() {
        return members.length;
    }

    int alignment() {
        return set.alignment();
    }

    /**
     * The most a section needs: its buffers stacked, each but the top one taking its aligned room. A sharper
     * bound than the plain byte sum when sizes are not multiples of the alignment.
     */
    long lowerBound() {
        long bound = 0;
        for (int[] section : members) {
            long stacked = 0;
            long slack = 0;
            for (int b : section) {
                stacked += room[b];
                slack = Math.max(slack, room[b] - size[b]);
            }
            bound = Math.max(bound, stacked - slack);
        }
        return bound;
    }

    /** Offsets of the searched buffers spread back to the whole set, empty buffers at 0. */
    long[] toSetOrder(long[] offsets) {
        long[] all = new long[set.buffers().size()];
        for (int b = 0; b < index.length; b++) {
            all[index[b]] = offsets[b];
        }
        return all;
    }

    static long alignUp(long value, long alignment) {
        long remainder = value % alignment;
        return remainder == 0 ? value : value + alignment - remainder;
    }

    private int[][] membersOf(int sections) {
        int[] count = new int[sections];
        for (int b = 0; b < index.length; b++) {
            for (int s = firstSection[b]; s <= lastSection[b]; s++) {
                count[s]++;
            }
        }
        int[][] members = new int[sections][];
        for (int s = 0; s < sections; s++) {
            members[s] = new int[count[s]];
            count[s] = 0;
        }
        for (int b = 0; b < index.length; b++) {
            for (int s = firstSection[b]; s <= lastSection[b]; s++) {
                members[s][count[s]++] = b;
            }
        }
        return members;
    }

    /**
     * Sweeps the buffers by first step, keeping those still live: each newcomer overlaps exactly those, so the
     * work is the number of overlapping pairs, not the square of the buffers. Two sweeps: count, then fill.
     */
    private static int[][] overlapsOf(int[] first, int[] last) {
        int n = first.length;
        int[] byFirst = byFirst(first);
        int[] count = new int[n];
        sweep(byFirst, first, last, (a, b) -> {
            count[a]++;
            count[b]++;
        });
        int[][] overlaps = new int[n][];
        for (int b = 0; b < n; b++) {
            overlaps[b] = new int[count[b]];
            count[b] = 0;
        }
        sweep(byFirst, first, last, (a, b) -> {
            overlaps[a][count[a]++] = b;
            overlaps[b][count[b]++] = a;
        });
        return overlaps;
    }

    /**
     * How many ordered pairs of buffers of {@code set} overlap in time, empty ones included: what the overlap
     * lists would hold.
     */
    static long overlaps(BufferSet set) {
        int n = set.buffers().size();
        int[] first = new int[n];
        int[] last = new int[n];
        for (int b = 0; b < n; b++) {
            first[b] = set.buffers().get(b).first();
            last[b] = set.buffers().get(b).last();
        }
        long[] count = new long[1];
        sweep(byFirst(first), first, last, (a, b) -> count[0] += 2);
        return count[0];
    }

    private static int[] byFirst(int[] first) {
        return IntStream.range(0, first.length).boxed().sorted(Comparator.comparingInt(b -> first[b]))
                .mapToInt(Integer::intValue).toArray();
    }

    private static void sweep(int[] byFirst, int[] first, int[] last, PairSink pairs) {
        int[] live = new int[byFirst.length];
        int liveCount = 0;
        for (int a : byFirst) {
            int kept = 0;
            for (int i = 0; i < liveCount; i++) {
                int b = live[i];
                if (last[b] >= first[a]) {
                    live[kept++] = b;
                    pairs.accept(a, b);
                }
            }
            live[kept] = a;
            liveCount = kept + 1;
        }
    }

    private interface PairSink {
        void accept(int a, int b);
    }
}
