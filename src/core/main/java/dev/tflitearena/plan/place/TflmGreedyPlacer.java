package dev.tflitearena.plan.place;

import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * TensorFlow Lite Micro's GreedyMemoryPlanner: buffers with an offline-planned offset sit there first, in
 * set order, the others follow largest first, each at the lowest gap it fits among the placed buffers live
 * with it. As TFLM's allocator does before {@code AddBuffer}, every size is first rounded up to the set's
 * alignment (its {@code MicroArenaBufferAlignment()}, 16): equal rounded sizes tie and keep TFLM's order, and
 * every gap starts aligned where the offline offsets are. A bare set's alignment of 1 leaves the sizes as
 * they are.
 */
public final class TflmGreedyPlacer implements Placer {
    public static final String NAME = "tflm-greedy";

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
        BufferSet rounded = roundedUp(buffers);
        List<BufferSet.Buffer> list = rounded.buffers();
        GreedyFit fit = new GreedyFit(rounded);
        for (int i = 0; i < list.size(); i++) {
            Long offline = offlineOffsets.get(list.get(i).id());
            if (offline != null) {
                // TFLM lists every buffer it places, an empty one too.
                fit.putListed(i, offline);
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

    /** The set with every size rounded up to its alignment, as TFLM's allocator hands sizes to its planners. */
    public static BufferSet roundedUp(BufferSet buffers) {
        List<BufferSet.Buffer> rounded = buffers.buffers().stream().map(b -> new BufferSet.Buffer(b.id(),
                SimpleMemoryArena.alignUp(b.size(), buffers.alignment()), b.first(), b.last())).toList();
        return new BufferSet(rounded, buffers.steps(), buffers.alignment());
    }

    @Override
    public String name() {
        return NAME;
    }
}
