package dev.tflitearena.plan.place;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The greedy placers on hand-made sets with known answers, on random sets and on MiniMalloc's instances. */
public class GreedyPlacersTest {
    static final List<Placer> PLACERS = List.of(new TflmGreedyPlacer(), new GreedyBySizePlacer(),
            new GreedyByBreadthPlacer(), new BestOfPlacer());

    /** Buffers {size, first, last}, ids in order, as many steps as the last needs. */
    static BufferSet set(int alignment, long[]... rows) {
        List<BufferSet.Buffer> buffers = new ArrayList<>();
        int steps = 1;
        for (long[] row : rows) {
            buffers.add(new BufferSet.Buffer(buffers.size(), row[0], (int) row[1], (int) row[2]));
            steps = Math.max(steps, (int) row[2] + 1);
        }
        return new BufferSet(buffers, steps, alignment);
    }

    /** TFLM's TestGreedyMedium. */
    static final BufferSet TFLM_MEDIUM = set(1, new long[]{10, 0, 1}, new long[]{20, 1, 2}, new long[]{30, 2, 3},
            new long[]{40, 3, 4}, new long[]{50, 0, 1});

    /** The GPU delegate's ChainRecords and ComplexRecords (memory_management_test.cc). */
    static final long[][] CHAIN = {{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
    static final long[][] COMPLEX = {{32, 0, 1}, {32, 1, 4}, {8, 2, 5}, {16, 3, 5}, {8, 4, 5}, {64, 5, 7},
            {8, 6, 8}, {8, 7, 8}, {16, 8, 9}};

    @Test
    void tflmGreedyPlacesTflmsTestCasesAsTflmDoes() {
        assertArrayEquals(new long[]{50, 70, 40, 0, 0}, new TflmGreedyPlacer().place(TFLM_MEDIUM).offsets());
        assertArrayEquals(new long[]{0, 0},
                new TflmGreedyPlacer().place(set(1, new long[]{10, 0, 1}, new long[]{20, 2, 3})).offsets());
        BufferSet overlap = set(1, new long[]{100, 0, 1}, new long[]{50, 2, 3}, new long[]{20, 1, 2});
        assertEquals(120, overlap.arenaBytes(new TflmGreedyPlacer().place(overlap).offsets()));
    }

    @Test
    void tflmGreedyPlacesEqualSizesLastAddedFirstAndAlignsItsCandidates() {
        BufferSet twins = set(1, new long[]{10, 0, 1}, new long[]{10, 0, 1});
        assertArrayEquals(new long[]{10, 0}, new TflmGreedyPlacer().place(twins).offsets());
        BufferSet aligned = set(64, new long[]{100, 0, 0}, new long[]{10, 0, 0});
        assertArrayEquals(new long[]{0, 128}, new TflmGreedyPlacer().place(aligned).offsets());
    }

    @Test
    void tflmGreedyKeepsOfflineOffsetsAndFitsTheRestAround() {
        BufferSet buffers = set(1, new long[]{10, 0, 1}, new long[]{20, 0, 1}, new long[]{5, 0, 1});
        Placer.Solution solution = new TflmGreedyPlacer(Map.of(0, 20L)).place(buffers);
        assertArrayEquals(new long[]{20, 0, 30}, solution.offsets());
        assertTrue(solution.provenOptimal());
    }

    @Test
    void greedyBySizePlacesTheGpuDelegatesTestCasesAsItDoes() {
        BufferSet chain = set(1, CHAIN);
        assertArrayEquals(new long[]{0, 64, 0, 64, 0}, new GreedyBySizePlacer().place(chain).offsets());
        BufferSet complex = set(1, COMPLEX);
        long[] offsets = new GreedyBySizePlacer().place(complex).offsets();
        assertArrayEquals(new long[]{0, 32, 80, 64, 88, 0, 64, 72, 0}, offsets);
        assertEquals(96, complex.arenaBytes(offsets));
        assertArrayEquals(new long[]{0, 128, 0, 128, 0}, new GreedyBySizePlacer().place(set(128, CHAIN)).offsets());
    }

    @Test
    void greedyByBreadthLaysOutTheGpuDelegatesObjects() {
        assertArrayEquals(new long[]{0, 64, 0, 64, 0}, new GreedyByBreadthPlacer().place(set(1, CHAIN)).offsets());
        // Objects 0..4 of sizes 64, 16, 8, 8, 32 for tensors' objects 0, 4, 2, 1, 3, 0, 2, 3, 1.
        assertArrayEquals(new long[]{0, 96, 80, 64, 88, 0, 80, 88, 64},
                new GreedyByBreadthPlacer().place(set(1, COMPLEX)).offsets());
        assertArrayEquals(new long[]{0, 160, 96, 64, 128, 0, 96, 128, 64},
                new GreedyByBreadthPlacer().place(set(32, COMPLEX)).offsets());
    }

    @Test
    void theArenasBestFitMeasuresFromTheUnalignedEndWhereTheSmallestGapDoesNot() {
        BufferSet buffers = set(64, new long[]{10, 0, 0}, new long[]{64, 0, 0}, new long[]{64, 0, 0},
                new long[]{64, 0, 0});
        assertEquals(192, fitLast(buffers, GreedyFit.Rule.ARENA_BEST));
        assertEquals(64, fitLast(buffers, GreedyFit.Rule.SMALLEST_GAP));
        assertEquals(64, fitLast(buffers, GreedyFit.Rule.FIRST));
    }

    /** The last buffer fitted after the others sit at 0, 128 and 256: gaps 10..128 and 192..256. */
    private static long fitLast(BufferSet buffers, GreedyFit.Rule rule) {
        GreedyFit fit = new GreedyFit(buffers);
        fit.put(0, 0);
        fit.put(1, 128);
        fit.put(2, 256);
        fit.fit(3, rule);
        return fit.offsets()[3];
    }

    @Test
    void everyPlacerIsValidAndNeverBelowTheLowerBoundOnRandomSets() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            BufferSet buffers = randomSet(random);
            long bound = buffers.lowerBound();
            for (Placer placer : PLACERS) {
                Placer.Solution solution = placer.place(buffers);
                buffers.validate(solution.offsets());
                long arena = buffers.arenaBytes(solution.offsets());
                assertTrue(arena >= bound, placer.name() + " below the lower bound on " + buffers);
                assertEquals(arena == bound, solution.provenOptimal(), placer.name() + " on " + buffers);
            }
        }
    }

    @Test
    void bestOfIsNeverWorseThanAnyOfItsMembers() {
        Random random = new Random(1);
        for (int round = 0; round < 300; round++) {
            BufferSet buffers = randomSet(random);
            long best = buffers.arenaBytes(new BestOfPlacer().place(buffers).offsets());
            for (Supplier<long[]> member : BestOfPlacer.members(buffers)) {
                long[] offsets = member.get();
                buffers.validate(offsets);
                assertTrue(best <= buffers.arenaBytes(offsets), buffers.toString());
            }
        }
    }

    @Test
    void everyPlacerOnMiniMallocsInstances() throws IOException {
        System.out.printf("%-10s %-18s %10s %10s %10s%n", "instance", "placer", "arena", "bound", "capacity");
        for (String name : List.of("A", "B", "C", "D", "E", "F")) {
            BufferSet buffers = MinimallocCsv.read(MinimallocCsvTest.INSTANCES.resolve(name + ".1048576.csv"));
            for (Placer placer : PLACERS) {
                long[] offsets = placer.place(buffers).offsets();
                buffers.validate(offsets);
                System.out.printf("%-10s %-18s %10d %10d %10d%n", name, placer.name(), buffers.arenaBytes(offsets),
                        buffers.lowerBound(), 1_048_576);
            }
        }
    }

    /** Up to 40 buffers over up to 20 steps, sizes 0 to 1e6, alignment 1 or 64. */
    public static BufferSet randomSet(Random random) {
        int steps = 1 + random.nextInt(20);
        int count = random.nextInt(41);
        List<BufferSet.Buffer> buffers = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            int first = random.nextInt(steps);
            int last = first + random.nextInt(steps - first);
            buffers.add(new BufferSet.Buffer(id, random.nextInt(1_000_001), first, last));
        }
        return new BufferSet(buffers, steps, random.nextBoolean() ? 1 : 64);
    }
}
