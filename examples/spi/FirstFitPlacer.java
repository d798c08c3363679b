package example.planner;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A placer another jar brings: each buffer in the order the set lists it (a subgraph's: by tensor index), at
 * the lowest aligned offset clear of the buffers placed before it that are live at the same time. On the
 * classpath with its service file, it is {@code --planner first-fit} in every command.
 */
public final class FirstFitPlacer implements Placer {
    @Override
    public String name() {
        return "first-fit";
    }

    @Override
    public Solution place(BufferSet set) {
        List<BufferSet.Buffer> buffers = set.buffers();
        long[] offsets = new long[buffers.size()];
        List<Integer> placed = new ArrayList<>();
        for (int i = 0; i < buffers.size(); i++) {
            BufferSet.Buffer buffer = buffers.get(i);
            long offset = 0;
            List<Integer> live = placed.stream().filter(j -> buffers.get(j).overlapsInTime(buffer))
                    .sorted(Comparator.comparingLong(j -> offsets[j])).toList();
            for (int j : live) {
                if (offsets[j] >= offset + buffer.size()) {
                    break;
                }
                offset = Math.max(offset, alignUp(offsets[j] + buffers.get(j).size(), set.alignment()));
            }
            offsets[i] = offset;
            placed.add(i);
        }
        return new Solution(offsets, false);
    }

    private static long alignUp(long value, int alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }
}
