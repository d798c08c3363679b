package dev.tflitearena.plan.place;

import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Greedy by breadth" of TFLite's GPU delegate (GreedyByBreadthAssignment): buffers in breadth order go to
 * shared objects, each to the best-sized object free over its whole lifetime, or to a new one; the objects
 * are then laid out one after another, as ObjectsToOffsets does, each starting at the alignment.
 */
public final class GreedyByBreadthPlacer implements Placer {
    public static final String NAME = "greedy-by-breadth";

    @Override
    public Solution place(BufferSet buffers) {
        List<BufferSet.Buffer> list = buffers.buffers();
        int[] objectOf = new int[list.size()];
        List<Long> objectSizes = new ArrayList<>();
        // Per object, the steps its buffers hold: first step to last, never overlapping.
        List<TreeMap<Integer, Integer>> schedules = new ArrayList<>();
        for (int i : GreedyOrder.byBreadth(buffers)) {
            BufferSet.Buffer b = list.get(i);
            int best = -1;
            for (int object = 0; object < objectSizes.size(); object++) {
                if (best >= 0 && !better(objectSizes.get(object), objectSizes.get(best), b.size())) {
                    continue;
                }
                if (isFree(schedules.get(object), b)) {
                    best = object;
                }
            }
            if (best < 0) {
                best = objectSizes.size();
                objectSizes.add(b.size());
                schedules.add(new TreeMap<>());
            }
            objectSizes.set(best, Math.max(objectSizes.get(best), b.size()));
            schedules.get(best).put(b.first(), b.last());
            objectOf[i] = best;
        }
        long[] objectOffsets = new long[objectSizes.size()];
        long end = 0;
        for (int object = 0; object < objectOffsets.length; object++) {
            objectOffsets[object] = SimpleMemoryArena.alignUp(end, buffers.alignment());
            end = objectOffsets[object] + objectSizes.get(object);
        }
        long[] offsets = new long[list.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = objectOffsets[objectOf[i]];
        }
        return GreedyFit.solution(buffers, offsets);
    }

    /**
     * The library's preference between an object and the best so far: while the best is too small, any larger
     * one; once it fits, a smaller one that still fits.
     */
    private static boolean better(long candidate, long best, long size) {
        return best < size ? candidate > best : candidate >= size && candidate < best;
    }

    private static boolean isFree(TreeMap<Integer, Integer> schedule, BufferSet.Buffer b) {
        Map.Entry<Integer, Integer> after = schedule.ceilingEntry(b.first());
        Map.Entry<Integer, Integer> before = schedule.lowerEntry(b.first());
        return (after == null || after.getKey() > b.last()) && (before == null || before.getValue() < b.first());
    }

    @Override
    public String name() {
        return NAME;
    }
}
