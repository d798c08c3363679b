package dev.tflitearena.plan.search;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.GreedyBySizePlacer;
import dev.tflitearena.plan.place.MinimallocCsv;
import dev.tflitearena.plan.place.MinimallocCsvTest;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptimalPlacerTest {
    private static final OptimalPlacer PLACER = new OptimalPlacer(Duration.ofSeconds(5));
    private static final BufferSet GREEDY_MISSES = CapacityFitTest.GREEDY_MISSES;

    private static BufferSet set(int steps, int alignment, long[]... buffers) {
        return CapacityFitTest.set(steps, alignment, buffers);
    }

    private static OptimalPlacer.Result solve(OptimalPlacer placer, BufferSet buffers) {
        OptimalPlacer.Result result = placer.solve(buffers);
        buffers.validate(result.offsets());
        assertEquals(buffers.arenaBytes(result.offsets()), result.arena());
        assertTrue(result.lowerBound() <= result.arena());
        return result;
    }

    @Test
    void findsThePackingTheGreedyMisses() {
        assertEquals(9, GREEDY_MISSES.arenaBytes(new GreedyBySizePlacer().place(GREEDY_MISSES).offsets()));
        OptimalPlacer.Result result = solve(PLACER, GREEDY_MISSES);
        assertEquals(8, result.arena());
        assertEquals(8, result.lowerBound());
        assertTrue(result.provenOptimal());
        assertFalse(result.timedOut());
    }

    @Test
    void provesABoundAboveTheFullestStepWhenAlignmentWastesRoom() {
        // Aligned to 4, step 0 holds 8 + 3 bytes, but whichever of the two goes below takes a multiple of 4:
        // the 3 on top of the 8 leaves the 5 (steps 1-3) only 0..8, so the 4 of step 3 ends at 12; the 3 below
        // pushes the 8 to 4..12.
        BufferSet buffers = set(4, 4, new long[] {5, 1, 3}, new long[] {8, 0, 0}, new long[] {3, 0, 2},
                new long[] {4, 3, 3});
        assertEquals(11, buffers.lowerBound());
        OptimalPlacer.Result result = solve(PLACER, buffers);
        assertEquals(12, result.arena());
        assertEquals(12, result.lowerBound());
        assertTrue(result.provenOptimal());
        assertTrue(PLACER.place(buffers).provenOptimal());
    }

    @Test
    void emptyBuffersTakeNoRoom() {
        BufferSet buffers = set(2, 64, new long[] {0, 0, 1}, new long[] {100, 0, 1}, new long[] {0, 1, 1});
        OptimalPlacer.Result result = solve(PLACER, buffers);
        assertEquals(100, result.arena());
        assertTrue(result.provenOptimal());
        assertEquals(0, solve(PLACER, set(1, 64)).arena());
    }

    @Test
    void matchesBruteForceOnTinyRandomSets() {
        Random random = new Random(20240611);
        int[] alignments = {1, 4, 16, 64};
        for (int trial = 0; trial < 1500; trial++) {
            int steps = 1 + random.nextInt(6);
            int alignment = alignments[random.nextInt(alignments.length)];
            List<BufferSet.Buffer> list = new ArrayList<>();
            int n = 1 + random.nextInt(7);
            for (int id = 0; id < n; id++) {
                int first = random.nextInt(steps);
                int last = first + random.nextInt(steps - first);
                list.add(new BufferSet.Buffer(id, random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(40), first, last));
            }
            BufferSet buffers = new BufferSet(list, steps, alignment);
            long optimum = BruteForce.arena(buffers);
            OptimalPlacer.Result result = solve(PLACER, buffers);
            String context = "trial " + trial + ": " + list + " aligned to " + alignment;
            assertEquals(optimum, result.arena(), context);
            assertEquals(optimum, result.lowerBound(), context);
            assertTrue(result.provenOptimal(), context);
        }
    }

    @Test
    void stopsAtTheTimeLimitWithTheBestPlanSoFar() throws IOException {
        // D's lower bound is out of reach: the search runs until it is stopped.
        BufferSet buffers = MinimallocCsv.read(MinimallocCsvTest.INSTANCES.resolve("D.1048576.csv"));
        for (long limit : new long[] {0, 300, 1000}) {
            long begin = System.nanoTime();
            OptimalPlacer.Result result = solve(new OptimalPlacer(Duration.ofMillis(limit)), buffers);
            long elapsed = (System.nanoTime() - begin) / 1_000_000;
            assertTrue(elapsed < limit + 200, "took " + elapsed + " ms for a limit of " + limit + " ms");
            assertTrue(result.timedOut());
            assertFalse(result.provenOptimal());
        }
    }

    @Test
    void startsFromAGivenPlanWhenItBeatsTheGreedy() {
        long[] packed = {3, 3, 0, 6};
        OptimalPlacer.Result result = new OptimalPlacer(Duration.ZERO).solve(GREEDY_MISSES, packed);
        assertArrayEquals(packed, result.offsets());
        assertTrue(result.provenOptimal(), "the start meets the lower bound");
    }

    /** MiniMalloc's hard instances; each is known to fit in 1 MiB, which simple greedy misses by 30-40%. */
    @ParameterizedTest
    @ValueSource(strings = {"A", "B", "C", "D", "E", "F"})
    void theHardInstancesFitTheirCapacity(String name) throws IOException {
        BufferSet buffers = MinimallocCsv.read(MinimallocCsvTest.INSTANCES.resolve(name + ".1048576.csv"));
        OptimalPlacer.Result result = solve(new OptimalPlacer(Duration.ofSeconds(20)), buffers);
        assertTrue(result.arena() <= 1_048_576, name + " needs " + result.arena());
    }

    @Test
    void realModelsGetNoLargerArenaThanTflitesQuickly() {
        for (Path model : TestModels.runnable()) {
            try (NativeModel loaded = NativeModel.load(model);
                 NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
                interpreter.allocateTensors();
                Graph graph = interpreter.snapshot();
                for (Subgraph subgraph : graph.subgraphs()) {
                    BufferSet buffers = BufferSet.of(subgraph, graph.options());
                    long tflite = new TflitePlanner().plan(subgraph, graph.options()).arenaBytes();
                    OptimalPlacer.Result result = solve(PLACER, buffers);
                    assertTrue(result.arena() <= tflite, model + ": " + result.arena() + " > " + tflite);
                    assertTrue(result.millis() < 5_000, model + " took " + result.millis() + " ms");
                }
            }
        }
    }

    /**
     * The optimum by exhaustion: every order of the buffers, each put at the lowest aligned offset clear of
     * those before it. Some order gives every optimal placement's offsets or lower, so the least arena over
     * all orders is the optimum.
     */
    private static final class BruteForce {
        static long arena(BufferSet buffers) {
            int n = buffers.buffers().size();
            int[] order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            return best(buffers, order, 0);
        }

        private static long best(BufferSet buffers, int[] order, int fixed) {
            if (fixed == order.length) {
                return buffers.arenaBytes(place(buffers, order));
            }
            long best = Long.MAX_VALUE;
            for (int i = fixed; i < order.length; i++) {
                swap(order, fixed, i);
                best = Math.min(best, best(buffers, order, fixed + 1));
                swap(order, fixed, i);
            }
            return best;
        }

        private static long[] place(BufferSet buffers, int[] order) {
            long[] offsets = new long[order.length];
            boolean[] placed = new boolean[order.length];
            for (int b : order) {
                BufferSet.Buffer buffer = buffers.buffers().get(b);
                long at = 0;
                for (boolean moved = true; moved; ) {
                    moved = false;
                    for (int other = 0; other < order.length; other++) {
                        BufferSet.Buffer o = buffers.buffers().get(other);
                        if (placed[other] && o.size() > 0 && buffer.overlapsInTime(o) && at < offsets[other] + o.size()
                                && offsets[other] < at + buffer.size()) {
                            at = TimeSections.alignUp(offsets[other] + o.size(), buffers.alignment());
                            moved = true;
                        }
                    }
                }
                offsets[b] = at;
                placed[b] = true;
            }
            return offsets;
        }

        private static void swap(int[] order, int i, int j) {
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
}
