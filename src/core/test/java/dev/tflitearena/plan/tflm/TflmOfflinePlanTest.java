package dev.tflitearena.plan.tflm;

import dev.tflitearena.TestModels;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.graph.tflite.TfliteModelBuilder;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.place.BestOfPlacer;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.search.OptimalPlacer;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.ActivationFunctionType;
import org.tensorflow.lite.schema.AddOptionsT;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.CallOnceOptionsT;
import org.tensorflow.lite.schema.WhileOptionsT;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TFLM's lifetimes derived from a model, and plans baked into its offline-plan metadata: the models of
 * micro_allocator_test.cc's offline-plan cases, written and read back and planned as TFLM's allocator plans
 * them; control flow on one timeline; every real and sample model baked and read back.
 */
class TflmOfflinePlanTest {
    /** micro_allocator_test.cc's tensors: 48 bytes each, 12 floats. */
    private static final int FLOATS = 12;

    private static TfliteModelBuilder.SubgraphBuilder tensors(TfliteModelBuilder model, int count, int[] t) {
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        for (int i = 0; i < count; i++) {
            t[i] = main.tensor("t" + i, TensorType.FLOAT32, FLOATS);
        }
        return main;
    }

    private static org.tensorflow.lite.schema.BuiltinOptionsUnion add() {
        AddOptionsT add = new AddOptionsT();
        add.setFusedActivationFunction(ActivationFunctionType.NONE);
        return TfliteModelBuilder.options(BuiltinOptions.AddOptions, add);
    }

    /** A model of micro_allocator_test's node lists: {inputs, outputs} per operator, over {@code count} tensors. */
    private static byte[] model(int count, int[][][] nodes, int[] inputs, int[] outputs) {
        TfliteModelBuilder model = new TfliteModelBuilder();
        int[] t = new int[count];
        TfliteModelBuilder.SubgraphBuilder main = tensors(model, count, t);
        for (int[][] node : nodes) {
            main.operator(BuiltinOperator.ADD, 1, node[0], node[1], add());
        }
        main.inputs(inputs);
        main.outputs(outputs);
        return model.build();
    }

    /** The buffers TFLM adds, {size, first, last} in tensor order, and the offsets it places them at with the plan. */
    private static void assertPlansAsTflm(byte[] model, int[] offline, long[][] buffers, long[] offsets) {
        TflmAllocations allocations = TflmAllocations.of(TfliteFile.read(model));
        List<long[]> seen = new ArrayList<>();
        for (BufferSet.Buffer b : allocations.buffers().buffers()) {
            seen.add(new long[]{b.size(), b.first(), b.last()});
        }
        assertArrayEquals(buffers, seen.toArray(new long[0][]), "TFLM's lifetimes");
        byte[] baked = MetadataWriter.put(model, OfflineMemoryAllocation.NAME,
                OfflineMemoryAllocation.bytes(1, List.of(offline)), false);
        TfliteModel read = TfliteFile.read(baked);
        TflmAllocations again = TflmAllocations.of(read);
        Map<Integer, Long> kept = again.offline(OfflineMemoryAllocation.of(read).orElseThrow());
        assertArrayEquals(offsets, new TflmGreedyPlacer(kept).place(again.buffers()).offsets(), "TFLM's placement");
    }

    @Test
    void microAllocatorsOfflinePlanCasesPlanAsTflmPlansThem() {
        // OfflinePlannerBranchesAllOnline: t0 -> t1, t0 -> t2, (t1, t2) -> t3.
        assertPlansAsTflm(model(4, new int[][][]{{{0}, {1}}, {{0}, {2}}, {{1, 2}, {3}}}, new int[]{0}, new int[]{3}),
                new int[]{-1, -1, -1, -1},
                new long[][]{{48, 0, 2}, {48, 1, 3}, {48, 2, 3}, {48, 3, 3}}, new long[]{0, 96, 48, 0});
        // OfflinePlannerBasic: a chain t0 -> t1 -> t2 -> t3, every tensor offline.
        assertPlansAsTflm(model(4, new int[][][]{{{0}, {1}}, {{1}, {2}}, {{2}, {3}}}, new int[]{0}, new int[]{3}),
                new int[]{0, 48, 0, 48},
                new long[][]{{48, 0, 1}, {48, 1, 2}, {48, 2, 3}, {48, 3, 3}}, new long[]{0, 48, 0, 48});
        // OfflinePlannerOverlappingAllocation: (t0, t1) -> t2 -> t3; the offline plan overlaps t0 and t1.
        assertPlansAsTflm(model(4, new int[][][]{{{0, 1}, {2}}, {{2}, {3}}}, new int[]{0, 1}, new int[]{3}),
                new int[]{0, 0, 48, -1},
                new long[][]{{48, 0, 1}, {48, 0, 1}, {48, 1, 2}, {48, 2, 2}}, new long[]{0, 0, 48, 0});
        // OfflinePlannerOfflineOnline: (t0, t1) -> t2 -> (t3, t4); t2 and t4 online.
        assertPlansAsTflm(model(5, new int[][][]{{{0, 1}, {2}}, {{2}, {3, 4}}}, new int[]{0, 1}, new int[]{3, 4}),
                new int[]{0, 48, -1, 0, -1},
                new long[][]{{48, 0, 1}, {48, 0, 1}, {48, 1, 2}, {48, 2, 2}, {48, 2, 2}}, new long[]{0, 48, 96, 0, 48});
    }

    @Test
    void controlFlowMarksTheCalledSubgraphsOnOneTimelineBeforeTheCallersInputsEnd() {
        // main: a -> ADD -> b; CALL_ONCE(init); b -> ADD -> c; init: k (constant) -> ADD -> y;
        // then a WHILE(cond, body) over c -> d.
        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        TfliteModelBuilder.SubgraphBuilder init = model.subgraph("init");
        TfliteModelBuilder.SubgraphBuilder cond = model.subgraph("cond");
        TfliteModelBuilder.SubgraphBuilder body = model.subgraph("body");
        int a = main.tensor("a", TensorType.FLOAT32, FLOATS);
        int b = main.tensor("b", TensorType.FLOAT32, FLOATS);
        int c = main.tensor("c", TensorType.FLOAT32, FLOATS);
        int d = main.tensor("d", TensorType.FLOAT32, FLOATS);
        main.operator(BuiltinOperator.ADD, 1, new int[]{a, a}, new int[]{b}, add());
        CallOnceOptionsT callOnce = new CallOnceOptionsT();
        callOnce.setInitSubgraphIndex(init.index());
        main.operator(BuiltinOperator.CALL_ONCE, 1, new int[0], new int[0],
                TfliteModelBuilder.options(BuiltinOptions.CallOnceOptions, callOnce));
        main.operator(BuiltinOperator.ADD, 1, new int[]{b, b}, new int[]{c}, add());
        WhileOptionsT loop = new WhileOptionsT();
        loop.setCondSubgraphIndex(cond.index());
        loop.setBodySubgraphIndex(body.index());
        main.operator(BuiltinOperator.WHILE, 1, new int[]{c}, new int[]{d},
                TfliteModelBuilder.options(BuiltinOptions.WhileOptions, loop));
        main.inputs(a);
        main.outputs(d);
        int k = init.constant("k", TensorType.FLOAT32, new int[]{FLOATS}, new byte[4 * FLOATS]);
        int y = init.tensor("y", TensorType.FLOAT32, FLOATS);
        init.operator(BuiltinOperator.ADD, 1, new int[]{k, k}, new int[]{y}, add());
        init.outputs(y);
        int x = cond.tensor("x", TensorType.FLOAT32, FLOATS);
        int flag = cond.tensor("flag", TensorType.BOOL, 1);
        cond.operator(BuiltinOperator.LESS, 1, new int[]{x, x}, new int[]{flag}, null);
        cond.inputs(x);
        cond.outputs(flag);
        int v = body.tensor("v", TensorType.FLOAT32, FLOATS);
        int w = body.tensor("w", TensorType.FLOAT32, FLOATS);
        body.operator(BuiltinOperator.ADD, 1, new int[]{v, v}, new int[]{w}, add());
        body.inputs(v);
        body.outputs(w);
        TflmAllocations allocations = TflmAllocations.of(TfliteFile.read(model.build()));
        // Scopes: 0 main's inputs; 1 ADD; 2 CALL_ONCE, 3 init, 4 its ADD; 5 ADD; 6 WHILE, 7 cond, 8 its LESS,
        // 9 body, 10 its ADD.
        Map<String, int[]> expected = new LinkedHashMap<>();
        expected.put("a", new int[]{0, 1});
        expected.put("b", new int[]{1, 5});
        expected.put("c", new int[]{5, 10});
        expected.put("d", new int[]{6, 10});
        expected.put("y", new int[]{4, 4});
        expected.put("x", new int[]{7, 8});
        expected.put("flag", new int[]{8, 8});
        expected.put("v", new int[]{9, 10});
        expected.put("w", new int[]{10, 10});
        Map<String, int[]> seen = new LinkedHashMap<>();
        for (TflmAllocations.Entry e : allocations.entries()) {
            if (e.needsAllocating()) {
                seen.put(e.name(), new int[]{e.first(), e.last()});
            } else {
                assertEquals("k", e.name());
                assertEquals(TflmAllocations.Online.CONSTANT, e.online());
            }
        }
        assertEquals(expected.keySet(), seen.keySet());
        expected.forEach((name, lifetime) -> assertArrayEquals(lifetime, seen.get(name), name));
        assertEquals(11, allocations.steps());
        assertEquals(allocations.id(3, w), allocations.entries().size() - 1, "ids run across the subgraphs");
        assertEquals(16, allocations.entries().get(allocations.id(1, 1)).size() - 32, "48 bytes stay 48 at 16");
    }

    private static Map<String, byte[]> everyModel() {
        Map<String, byte[]> models = new LinkedHashMap<>();
        SampleModels.all().forEach((name, model) -> models.put(name, model.get()));
        try {
            for (Path model : TestModels.all()) {
                models.put(model.getFileName().toString(), Files.readAllBytes(model));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return models;
    }

    @Test
    void everyModelBakesAndReadsBackAndTflmKeepsTheBakedPlan() {
        for (Map.Entry<String, byte[]> m : everyModel().entrySet()) {
            String what = m.getKey();
            TflmAllocations allocations = TflmAllocations.of(TfliteFile.read(m.getValue()));
            TflmOfflinePlan plan = TflmOfflinePlan.of(allocations, new BestOfPlacer());
            assertTrue(plan.arenaBytes() <= plan.greedyArenaBytes(), what + ": never above TFLM's greedy plan");
            assertTrue(plan.arenaBytes() >= plan.lowerBoundBytes(), what);
            assertEquals(allocations.entries().size(), plan.tensorsBaked() + plan.tensorsConstant()
                    + plan.tensorsOnline().size(), what + ": every tensor accounted for");

            TfliteModel baked = TfliteFile.read(MetadataWriter.put(m.getValue(), OfflineMemoryAllocation.NAME,
                    plan.metadata(), false));
            OfflineMemoryAllocation read = OfflineMemoryAllocation.of(baked).orElseThrow();
            assertEquals(TflmOfflinePlan.VERSION, read.version());
            assertEquals(plan.offsetsBySubgraph().size(), read.offsets().size(), what);
            for (int s = 0; s < read.offsets().size(); s++) {
                assertArrayEquals(plan.offsetsBySubgraph().get(s), read.offsets().get(s), what + ", subgraph " + s);
            }
            TflmAllocations again = TflmAllocations.of(baked);
            BufferSet buffers = again.buffers();
            long[] kept = new TflmGreedyPlacer(again.offline(read)).place(buffers).offsets();
            buffers.validate(kept);
            assertEquals(plan.arenaBytes(), buffers.arenaBytes(kept), what + ": TFLM's planner keeps the baked arena");
            for (int i = 0; i < kept.length; i++) {
                assertEquals(plan.offsets()[buffers.buffers().get(i).id()], kept[i], what);
            }
        }
    }

    @Test
    void theExactSearchProvesTheBoundOnTheInt8ConvNet() {
        TflmAllocations allocations = TflmAllocations.of(TfliteFile.read(SampleModels.int8ConvNet()));
        TflmOfflinePlan plan = TflmOfflinePlan.of(allocations, new OptimalPlacer(Duration.ofSeconds(10)));
        assertTrue(plan.provenOptimal());
        assertEquals(plan.lowerBoundBytes(), plan.arenaBytes());
        assertTrue(plan.arenaBytes() < plan.greedyArenaBytes(), plan.arenaBytes() + " vs " + plan.greedyArenaBytes());
    }

    @Test
    void whatTflmCannotPlanIsRefusedOrListedWithTheReason() {
        IllegalArgumentException alignment = assertThrows(IllegalArgumentException.class,
                () -> TflmAllocations.of(TfliteFile.read(SampleModels.int8ConvNet()), 24));
        assertTrue(alignment.getMessage().contains("power of two"), alignment.getMessage());

        TflmAllocations state = TflmAllocations.of(TfliteFile.read(SampleModels.svdfState()));
        assertTrue(state.entries().stream().anyMatch(e -> e.online() == TflmAllocations.Online.VARIABLE));

        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int s = main.tensor("text", TensorType.STRING, 1);
        int t = main.tensor("copy", TensorType.STRING, 1);
        main.operator(BuiltinOperator.ADD, 1, new int[]{s, s}, new int[]{t}, add());
        main.inputs(s);
        main.outputs(t);
        InvalidPlanException strings = assertThrows(InvalidPlanException.class,
                () -> TflmAllocations.of(TfliteFile.read(model.build())));
        assertTrue(strings.getMessage().contains("tensor 0 ('text'): type STRING"), strings.getMessage());
    }
}
