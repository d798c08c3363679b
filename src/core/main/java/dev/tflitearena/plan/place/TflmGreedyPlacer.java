package dev.tflitearena.plan.place;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * TensorFlow Lite Micro's GreedyMemoryPlanner: buffers with an offline-planned offset sit there first, the
 * others follow largest first, each at the lowest gap it fits among the placed buffers live with it. Gaps
 * start at the set's alignment, where TFLM instead rounds every size up before planning.
 */
public final class TflmGreedyPlacer implements Placer {
    public static final String NAME = "tflm-greedy";
    private static final int LINE_WIDTH = 80;

    private final Map<Integer, Long> offlineOffsets;

    public TflmGreedyPlacer() {
        this(Map.of());
    }

    /** With offline-planned offsets by buffer id, kept as given. */
    public TflmGreedyPlacer(Map<Integer, Long> offlineOffsets) {
        this.offlineOffsets = Map.copyOf(offlineOffsets);
    }

    @Override
    public Solution place(BufferSet buffers) {
        List<BufferSet.Buffer> list = buffers.buffers();
        GreedyFit fit = new GreedyFit(buffers);
        for (int i = 0; i < list.size(); i++) {
            Long offline = offlineOffsets.get(list.get(i).id());
            if (offline != null) {
                fit.put(i, offline);
            }
        }
        // TFLM files the online buffers from the tail of its array, so its stable sort meets them last-added
        // first, and equal sizes are placed in reverse order.
        int[] online = IntStream.range(0, list.size()).map(i -> list.size() - 1 - i)
                .filter(i -> !offlineOffsets.containsKey(list.get(i).id())).boxed()
                .sorted((x, y) -> Long.compare(list.get(y).size(), list.get(x).size()))
                .mapToInt(Integer::intValue).toArray();
        for (int i : online) {
            fit.fit(i, GreedyFit.Rule.FIRST);
        }
        return GreedyFit.solution(buffers, fit.offsets());
    }

    /**
     * The plan as TFLM's PrintMemoryPlan draws it: a line per buffer (naming its id where TFLM names its
     * position), then a line per time step with the arena scaled to 80 columns, each buffer drawn with its
     * position's character ('*' for one that lives a single step), '!' where two meet, and the kilobytes live.
     */
    public static String asciiPlan(BufferSet buffers, long[] offsets) {
        List<BufferSet.Buffer> list = buffers.buffers();
        StringBuilder out = new StringBuilder();
        long maxSize = LINE_WIDTH;
        int maxTime = 0;
        for (int i = 0; i < list.size(); i++) {
            BufferSet.Buffer b = list.get(i);
            out.append(String.format("%c (id=%d): size=%d, offset=%d, first_used=%d last_used=%d\n",
                    character(b, i), b.id(), b.size(), offsets[i], b.first(), b.last()));
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

    @Override
    public String name() {
        return NAME;
    }
}
