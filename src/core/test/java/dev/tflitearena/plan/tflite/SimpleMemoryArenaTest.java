package dev.tflitearena.plan.tflite;

import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.GreedyFit;
import dev.tflitearena.plan.place.GreedyOrder;
import dev.tflitearena.plan.place.GreedyPlacersTest;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The greedy placers' ARENA_BEST rule against the arena it copies, with and without the active list filed by stretch of nodes;
 * the persistent arena against the arena it specialises.
 */
class SimpleMemoryArenaTest {
    @Test
    void theArenasBestFitPlacesAsSimpleMemoryArenaDoes() {
        Random random = new Random(7);
        for (int round = 0; round < 400; round++) {
            BufferSet buffers = GreedyPlacersTest.randomSet(random);
            int[] order = GreedyOrder.tflite(buffers);
            // Some lifetimes reach past the nodes filed (as TFLite's outputs do), or the arena starts small.
            SimpleMemoryArena arena = new SimpleMemoryArena(1 + random.nextInt(8),
                    round % 2 == 0 ? 0 : 1 + random.nextInt(buffers.steps()));
            long[] offsets = GreedyFit.place(buffers, order, GreedyFit.Rule.ARENA_BEST);
            for (int i : order) {
                BufferSet.Buffer b = buffers.buffers().get(i);
                assertEquals(offsets[i], arena.allocate(buffers.alignment(), b.size(), b.first(), b.last()));
            }
        }
    }

    @Test
    void purgingRefilesTheActiveListByStretch() {
        Random random = new Random(11);
        for (int round = 0; round < 300; round++) {
            BufferSet buffers = GreedyPlacersTest.randomSet(random);
            SimpleMemoryArena scanned = new SimpleMemoryArena(4, 0);
            SimpleMemoryArena filed = new SimpleMemoryArena(4, buffers.steps());
            for (int i : GreedyOrder.tflite(buffers)) {
                BufferSet.Buffer b = buffers.buffers().get(i);
                if (random.nextInt(8) == 0) {
                    int node = random.nextInt(buffers.steps());
                    boolean before = random.nextBoolean();
                    for (SimpleMemoryArena arena : new SimpleMemoryArena[] {scanned, filed}) {
                        if (before) {
                            arena.purgeActiveAllocs(node);
                        } else {
                            arena.purgeAfter(node);
                        }
                    }
                }
                assertEquals(scanned.allocate(buffers.alignment(), b.size(), b.first(), b.last()),
                        filed.allocate(buffers.alignment(), b.size(), b.first(), b.last()));
            }
        }
    }

    @Test
    void thePersistentArenaPlacesAsAnArenaWhoseAllocationsNeverEnd() {
        Random random = new Random(5);
        for (int round = 0; round < 300; round++) {
            SimpleMemoryArena general = new SimpleMemoryArena(4, 0);
            PersistentArena persistent = new PersistentArena();
            long alignment = random.nextBoolean() ? 1 : 64;
            int count = random.nextInt(60);
            for (int i = 0; i < count; i++) {
                // Sizes off the alignment leave the gaps the best fit can take later.
                long size = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 100 : 5000);
                int node = random.nextInt(10);
                assertEquals(general.allocate(alignment, size, node, Lifetimes.NOT_ASSIGNED),
                        persistent.allocate(alignment, size));
            }
            assertEquals(general.highWaterMark(), persistent.highWaterMark());
        }
    }
}
