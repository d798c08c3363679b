package dev.tflitearena.plan.tflite;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.GreedyFit;
import dev.tflitearena.plan.place.GreedyOrder;
import dev.tflitearena.plan.place.GreedyPlacersTest;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The greedy placers' ARENA_BEST rule against the arena it copies. */
class SimpleMemoryArenaTest {
    @Test
    void theArenasBestFitPlacesAsSimpleMemoryArenaDoes() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            BufferSet buffers = GreedyPlacersTest.randomSet(random);
            int[] order = GreedyOrder.tflite(buffers);
            SimpleMemoryArena arena = new SimpleMemoryArena();
            long[] offsets = GreedyFit.place(buffers, order, GreedyFit.Rule.ARENA_BEST);
            for (int i : order) {
                BufferSet.Buffer b = buffers.buffers().get(i);
                assertEquals(arena.allocate(buffers.alignment(), b.size(), b.first(), b.last()), offsets[i]);
            }
        }
    }
}
