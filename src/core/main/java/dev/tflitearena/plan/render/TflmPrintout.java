package dev.tflitearena.plan.render;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.TflmGreedyPlacer;

import java.util.List;

/**
 * A placement as TFLM's GreedyMemoryPlanner::PrintMemoryPlan prints it, character for character: a line per
 * buffer in the order TFLM numbers them (its {@code id} is that position), with the size as TFLM's allocator
 * hands it over (rounded up to the set's alignment), then a line per time step with the arena scaled to 80
 * columns, each buffer drawn with its position's character ('*' for one that lives a single step), '!' where
 * two meet, and the kilobytes live.
 */
public final class TflmPrintout {
    private static final int LINE_WIDTH = 80;

    private TflmPrintout() {
    }

    public static String of(BufferSet buffers, long[] offsets) {
        List<BufferSet.Buffer> list = TflmGreedyPlacer.roundedUp(buffers).buffers();
        StringBuilder out = new StringBuilder();
        long maxSize = LINE_WIDTH;
        int maxTime = 0;
        for (int i = 0; i < list.size(); i++) {
            BufferSet.Buffer b = list.get(i);
            out.append(String.format("%c (id=%d): size=%d, offset=%d, first_used=%d last_used=%d\n",
                    character(b, i), i, b.size(), offsets[i], b.first(), b.last()));
            maxSize = Math.max(maxSize, offsets[i] + b.size());
            maxTime = Math.max(maxTime, b.last());
        }
        for (int t = 0; t <= maxTime; t++) {
            char[] line = ".".repeat(LINE_WIDTH).toCharArray();
            long live = 0;
            for (int i = 0; i < list.size(); i++) {
                BufferSet.Buffer b = list.get(i);
                if (t < b.first() || t > b.last()) {
                    continue;
                }
                live += b.size();
                int end = (int) ((offsets[i] + b.size()) * LINE_WIDTH / maxSize);
                for (int n = (int) (offsets[i] * LINE_WIDTH / maxSize); n < end; n++) {
                    line[n] = line[n] == '.' ? character(b, i) : '!';
                }
            }
            out.append(String.format("%4d: %s (%dk)\n", t, new String(line), (live + 1023) / 1024));
        }
        return out.toString();
    }

    /** TFLM's ordinal character of the i-th buffer: 0-9, a-z, A-Z, round again. */
    private static char character(BufferSet.Buffer b, int i) {
        if (b.first() == b.last()) {
            return '*';
        }
        int k = i % 62;
        return (char) (k < 10 ? '0' + k : k < 36 ? 'a' + k - 10 : 'A' + k - 36);
    }
}
