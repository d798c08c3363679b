package dev.tflitearena.plan.place;

/**
 * TensorFlow Lite Micro's LinearMemoryPlanner: every buffer after the one before, in set order, nothing
 * shared; sizes rounded up to the set's alignment first, as TFLM's allocator hands them over. TFLM's
 * version refuses offline-planned offsets, and so this one takes none.
 */
public final class TflmLinearPlacer implements Placer {
    public static final String NAME = "tflm-linear";

    @Override
    public Solution place(BufferSet buffers) {
        BufferSet rounded = TflmGreedyPlacer.roundedUp(buffers);
        long[] offsets = new long[rounded.buffers().size()];
        long next = 0;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = next;
            next += rounded.buffers().get(i).size();
        }
        return GreedyFit.solution(buffers, offsets);
    }

    @Override
    public String name() {
        return NAME;
    }
}
