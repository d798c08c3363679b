package dev.tflitearena.plan.place;

import dev.tflitearena.plan.tflite.TflitePlanner;

/**
 * TFLite's placement rule on a bare buffer set, for sets that come without a graph (a MiniMalloc CSV):
 * buffers live over every step first by id, then by size descending and first step ascending, each at
 * SimpleMemoryArena's best fit. On a graph, {@link TflitePlanner} reproduces the native planner exactly.
 */
public final class TflitePlacer implements Placer {

    @Override
    public String name() {
        return TflitePlanner.NAME;
    }

    @Override
    public Solution place(BufferSet buffers) {
        return GreedyFit.solution(buffers,
                GreedyFit.place(buffers, GreedyOrder.tflite(buffers), GreedyFit.Rule.ARENA_BEST));
    }
}
