package dev.tflitearena.plan.place;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.render.TflmPrintout;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.tflitearena.plan.place.GreedyPlacersTest.set;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TFLM's two planners against TFLM's own tests: greedy_memory_planner_test.cc and
 * linear_memory_planner_test.cc as they are, and the offline-plan cases of micro_allocator_test.cc as the
 * planner sees them (48-byte tensors, lifetimes in TFLM's allocation scopes: subgraph inputs from scope 0,
 * operator i at scope i + 1, outputs to the last). Then the sample model at alignments 16 and 64.
 */
public class TflmPlannersTest {
    /** The buffers of TestPersonDetectionModel, {size, first, last}, in the order it adds them. */
    private static final long[][] PERSON_DETECTION = {{9216, 0, 29}, {3, 28, 29}, {256, 27, 28}, {2304, 26, 27},
            {2304, 25, 26}, {2304, 24, 25}, {1152, 23, 24}, {4608, 22, 23}, {4608, 21, 22}, {4608, 20, 21},
            {4608, 19, 20}, {4608, 18, 19}, {4608, 17, 18}, {4608, 16, 17}, {4608, 15, 16}, {4608, 14, 15},
            {4608, 13, 14}, {4608, 12, 13}, {2304, 11, 12}, {9216, 10, 11}, {9216, 9, 10}, {9216, 8, 9},
            {4608, 7, 8}, {18432, 6, 7}, {18432, 5, 6}, {18432, 4, 5}, {9216, 3, 4}, {36864, 2, 3},
            {18432, 1, 2}, {18432, 0, 1}};

    @Test
    void greedyPassesTflmsGreedyMemoryPlannerTests() {
        TflmGreedyPlacer greedy = new TflmGreedyPlacer();
        BufferSet basics = set(1, new long[]{10, 0, 1}, new long[]{20, 2, 3});
        assertArrayEquals(new long[]{0, 0}, greedy.place(basics).offsets());
        assertEquals(20, basics.arenaBytes(greedy.place(basics).offsets()));

        long[] medium = greedy.place(GreedyPlacersTest.TFLM_MEDIUM).offsets();
        assertArrayEquals(new long[]{50, 70, 40, 0, 0}, medium);
        assertEquals(90, GreedyPlacersTest.TFLM_MEDIUM.arenaBytes(medium));

        BufferSet person = set(1, PERSON_DETECTION);
        long[] offsets = greedy.place(person).offsets();
        person.validate(offsets);
        assertTrue(person.arenaBytes(offsets) < 241_027, "below the sum of the buffers");

        BufferSet overlap = set(1, new long[]{100, 0, 1}, new long[]{50, 2, 3}, new long[]{20, 1, 2});
        long[] overlapOffsets = greedy.place(overlap).offsets();
        overlap.validate(overlapOffsets);
        assertEquals(120, overlap.arenaBytes(overlapOffsets));
    }

    @Test
    void linearPassesTflmsLinearMemoryPlannerTests() {
        TflmLinearPlacer linear = new TflmLinearPlacer();
        BufferSet basics = set(1, new long[]{10, 0, 1}, new long[]{20, 1, 2});
        assertArrayEquals(new long[]{0, 10}, linear.place(basics).offsets());
        assertEquals(30, basics.arenaBytes(linear.place(basics).offsets()));
        BufferSet person = set(1, PERSON_DETECTION);
        assertEquals(241_027, person.arenaBytes(linear.place(person).offsets()));
    }

    @Test
    void greedyPlacesMicroAllocatorsOfflinePlansAsTflmDoes() {
        // OfflinePlannerBranchesAllOnline: t0 -> t1, t0 -> t2, (t1, t2) -> t3.
        BufferSet branches = set(16, new long[]{48, 0, 2}, new long[]{48, 1, 3}, new long[]{48, 2, 3},
                new long[]{48, 3, 3});
        assertArrayEquals(new long[]{0, 96, 48, 0}, new TflmGreedyPlacer().place(branches).offsets());
        // OfflinePlannerBasic: a chain t0 -> t1 -> t2 -> t3, every tensor offline.
        BufferSet chain = set(16, new long[]{48, 0, 1}, new long[]{48, 1, 2}, new long[]{48, 2, 3},
                new long[]{48, 3, 3});
        assertArrayEquals(new long[]{0, 48, 0, 48},
                new TflmGreedyPlacer(Map.of(0, 0L, 1, 48L, 2, 0L, 3, 48L)).place(chain).offsets());
        // OfflinePlannerOverlappingAllocation: (t0, t1) -> t2 -> t3; the offline plan overlaps t0 and t1.
        BufferSet overlapping = set(16, new long[]{48, 0, 1}, new long[]{48, 0, 1}, new long[]{48, 1, 2},
                new long[]{48, 2, 2});
        assertArrayEquals(new long[]{0, 0, 48, 0},
                new TflmGreedyPlacer(Map.of(0, 0L, 1, 0L, 2, 48L)).place(overlapping).offsets());
        // OfflinePlannerOfflineOnline: (t0, t1) -> t2 -> (t3, t4); t2 and t4 online.
        BufferSet mixed = set(16, new long[]{48, 0, 1}, new long[]{48, 0, 1}, new long[]{48, 1, 2},
                new long[]{48, 2, 2}, new long[]{48, 2, 2});
        assertArrayEquals(new long[]{0, 48, 96, 0, 48},
                new TflmGreedyPlacer(Map.of(0, 0L, 1, 48L, 3, 0L)).place(mixed).offsets());
    }

    @Test
    void sizesAreRoundedUpToTheAlignmentBeforePlanningSoEqualRoundedSizesTie() {
        // The same chain with 47-byte tensors: TFLM hands the planner 48 for each, and places them as above.
        BufferSet mixed = set(16, new long[]{47, 0, 1}, new long[]{47, 0, 1}, new long[]{47, 1, 2},
                new long[]{47, 2, 2}, new long[]{47, 2, 2});
        assertArrayEquals(new long[]{0, 48, 96, 0, 48},
                new TflmGreedyPlacer(Map.of(0, 0L, 1, 48L, 3, 0L)).place(mixed).offsets());
        // 40 and 33 bytes both round to 48: the later-added one goes first, as TFLM's reversed tail does.
        BufferSet tie = set(16, new long[]{40, 0, 0}, new long[]{33, 0, 0});
        assertArrayEquals(new long[]{48, 0}, new TflmGreedyPlacer().place(tie).offsets());
        assertArrayEquals(new long[]{0, 48}, new TflmLinearPlacer().place(tie).offsets());
    }

    @Test
    void anEmptyOfflineBufferStaysInTheListAndEndsTheGapItSitsIn() {
        // TFLM lists the empty buffer at 50: the gap 0..100 under the 100-byte one is cut to 0..50 and 50..100,
        // and the 60-byte buffer fits neither, so it goes above, at 200.
        BufferSet buffers = set(1, new long[]{0, 0, 0}, new long[]{100, 0, 0}, new long[]{60, 0, 0});
        assertArrayEquals(new long[]{50, 100, 200},
                new TflmGreedyPlacer(Map.of(0, 50L, 1, 100L)).place(buffers).offsets());
    }

    @Test
    void theSampleModelPlansAsTflmsAllocatorWouldAtAlignments16And64() {
        TfliteModel model = TfliteFile.read(SampleModels.tflmOfflinePlan());
        List<int[]> offline = OfflineMemoryAllocation.of(model).orElseThrow().offsets();
        assertArrayEquals(new int[]{512, -1, -1, -1}, offline.get(0));
        Graph at16 = new Graph(new Graph.Options(16, false), model.toGraph().subgraphs());
        Graph at64 = new Graph(new Graph.Options(64, false), model.toGraph().subgraphs());
        Planner online = Planners.byName(TflmGreedyPlacer.NAME);
        Planner offlinePlanned = new TflmGreedyPlanner(offline);
        // Tensors a (120 bytes), b (108), c (100) and their concatenation (328), all live together. At 16 b and
        // c tie at 112, so c, added later, goes first; at 64 a, b and c tie at 128 and go c, b, a.
        assertArrayEquals(new long[]{336, 576, 464, 0}, offsets(at16, online));
        assertArrayEquals(new long[]{640, 512, 384, 0}, offsets(at64, online));
        assertArrayEquals(new long[]{512, 640, 336, 0}, offsets(at16, offlinePlanned));
        assertArrayEquals(new long[]{512, 640, 384, 0}, offsets(at64, offlinePlanned));
        assertArrayEquals(new long[]{0, 128, 240, 352}, offsets(at16, Planners.byName(TflmLinearPlacer.NAME)));
    }

    @Test
    void anOfflineOffsetTfliteCannotKeepIsRefusedNamingTheTensor() {
        TfliteModel model = TfliteFile.read(SampleModels.tflmOfflinePlan());
        Graph at16 = new Graph(new Graph.Options(16, false), model.toGraph().subgraphs());
        InvalidPlanException misaligned = assertThrows(InvalidPlanException.class,
                () -> new TflmGreedyPlanner(List.<int[]>of(new int[]{520, -1, -1, -1})).plan(at16));
        assertTrue(misaligned.getMessage().contains("buffer 0 at offset 520"), misaligned.getMessage());
        assertThrows(InvalidPlanException.class,
                () -> new TflmGreedyPlanner(List.of(new int[4], new int[4])).plan(at16));
    }

    @Test
    void printoutIsTflmsPrintMemoryPlan() {
        BufferSet buffers = set(1, new long[]{10, 0, 1}, new long[]{20, 1, 2}, new long[]{30, 2, 3},
                new long[]{40, 3, 4}, new long[]{50, 0, 1}, new long[]{8, 2, 2});
        long[] offsets = new TflmGreedyPlacer().place(buffers).offsets();
        assertEquals("""
                0 (id=0): size=10, offset=50, first_used=0 last_used=1
                1 (id=1): size=20, offset=70, first_used=1 last_used=2
                2 (id=2): size=30, offset=40, first_used=2 last_used=3
                3 (id=3): size=40, offset=0, first_used=3 last_used=4
                4 (id=4): size=50, offset=0, first_used=0 last_used=1
                * (id=5): size=8, offset=0, first_used=2 last_used=2
                   0: 44444444444444444444444444444444444444444444000000000........................... (1k)
                   1: 44444444444444444444444444444444444444444444000000000.........111111111111111111 (1k)
                   2: *******............................222222222222222222222222222111111111111111111 (1k)
                   3: 33333333333333333333333333333333333222222222222222222222222222.................. (1k)
                   4: 33333333333333333333333333333333333............................................. (1k)
                """, TflmPrintout.of(buffers, offsets));
        // Sizes as TFLM's allocator hands them over; ids are positions, as TFLM numbers its buffers.
        BufferSet aligned = new BufferSet(List.of(new BufferSet.Buffer(7, 33, 0, 0)), 1, 16);
        assertTrue(TflmPrintout.of(aligned, new long[]{0}).startsWith("* (id=0): size=48, offset=0,"));
    }

    /** The rw offsets of the primary subgraph's tensors, by tensor index, in a validated plan. */
    private static long[] offsets(Graph graph, Planner planner) {
        Plan plan = planner.plan(graph);
        PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
        return plan.subgraphs().get(0).placements().stream().mapToLong(Placement::offset).toArray();
    }
}
