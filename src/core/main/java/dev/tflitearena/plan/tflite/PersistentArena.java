package dev.tflitearena.plan.tflite;

import java.util.Arrays;

/**
 * TFLite's persistent arena: a {@link SimpleMemoryArena} whose allocations all live to the end, so every one
 * overlaps every other in time. Its best-fit scan over the active list then only ever stops at the free gaps
 * between them, each starting where everything below it ends; this arena keeps those gaps, in offset order,
 * instead of the allocations, and applies the same rule to them, quirk included.
 */
final class PersistentArena {
    private long[] gapStart = new long[8];
    private long[] gapEnd = new long[8];
    private int gaps;
    private long highWaterMark;

    /** Places {@code size} bytes for good; returns the offset. */
    long allocate(long alignment, long size) {
        if (size == 0) {
            return 0;
        }
        long best = -1;
        long bestFit = Long.MAX_VALUE;
        int bestGap = -1;
        for (int g = 0; g < gaps; g++) {
            long current = gapStart[g];
            long offset = gapEnd[g];
            if (current + size <= offset) {
                long aligned = SimpleMemoryArena.alignUp(current, alignment);
                if (aligned + size <= offset && offset - aligned < bestFit) {
                    best = aligned;
                    bestFit = offset - current;
                    bestGap = g;
                    if (bestFit == size) {
                        break;
                    }
                }
            }
        }
        if (best < 0) {
            best = SimpleMemoryArena.alignUp(highWaterMark, alignment);
            if (best > highWaterMark) {
                insertGap(gaps, highWaterMark, best);
            }
            highWaterMark = best + size;
            return best;
        }
        long start = gapStart[bestGap];
        long end = gapEnd[bestGap];
        removeGap(bestGap);
        if (best + size < end) {
            insertGap(bestGap, best + size, end);
        }
        if (start < best) {
            insertGap(bestGap, start, best);
        }
        return best;
    }

    long highWaterMark() {
        return highWaterMark;
    }

    private void insertGap(int at, long start, long end) {
        if (gaps == gapStart.length) {
            gapStart = Arrays.copyOf(gapStart, gaps * 2);
            gapEnd = Arrays.copyOf(gapEnd, gaps * 2);
        }
        System.arraycopy(gapStart, at, gapStart, at + 1, gaps - at);
        System.arraycopy(gapEnd, at, gapEnd, at + 1, gaps - at);
        gapStart[at] = start;
        gapEnd[at] = end;
        gaps++;
    }

    private void removeGap(int at) {
        System.arraycopy(gapStart, at + 1, gapStart, at, gaps - at - 1);
        System.arraycopy(gapEnd, at + 1, gapEnd, at, gaps - at - 1);
        gaps--;
    }
}
