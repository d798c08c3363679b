package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.group.GroupPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArenaGroupTest {
    /** The pipeline of the issue: a detector, then two landmark models. */
    static final List<String> PIPELINE = List.of("face_detection_short_range.tflite", "hand_landmark_full.tflite",
            "pose_landmark_lite.tflite");
    private static final List<TfLiteModel> MODELS = new ArrayList<>();

    @BeforeAll
    static void load() {
        PIPELINE.forEach(name -> MODELS.add(TfLiteModel.load(TestModels.named(name))));
    }

    @AfterAll
    static void close() {
        MODELS.forEach(TfLiteModel::close);
    }

    private static byte[] bytes(Outputs outputs, int index) {
        ByteBuffer copy = ByteBuffer.allocate((int) outputs.infos().get(index).bytes());
        outputs.copyTo(index, copy);
        return copy.array();
    }

    private static Object[] inputs(List<TensorInfo> inputs, long seed) {
        return inputs.stream().map(i -> {
            byte[] data = SeededInputs.of(i.index(), i.bytes(), i.type(), seed);
            return ByteBuffer.allocateDirect(data.length).order(ByteOrder.nativeOrder()).put(data).flip();
        }).toArray();
    }

    /** Runs the models in this order on the group and each on its session alone, output by output the same. */
    private static void assertSameAsAlone(ArenaGroup group, List<Session> alone, int... order) {
        for (int run = 0; run < order.length; run++) {
            int m = order[run];
            Object[] values = inputs(group.inputs(m), run * 10L);
            Outputs expected = alone.get(m).run(values);
            Outputs actual = group.run(m, values);
            for (int o = 0; o < group.outputs(m).size(); o++) {
                assertArrayEquals(bytes(expected, o), bytes(actual, o), "run " + run + ", model " + m
                        + ", output " + o);
            }
        }
    }

    @Test
    void threeRealModelsRunOnOneArenaAboutTheLargestsWithOutputsIdenticalToAlone() {
        List<Session> alone = MODELS.stream().map(m -> m.newSession(SessionOptions.DEFAULT)).toList();
        try (ArenaGroup group = ArenaGroup.of(MODELS, SessionOptions.DEFAULT.withPlanner("tflite"))) {
            GroupPlan plan = group.plan();
            assertTrue(group.arenaBytes() <= 1.05 * plan.largestAloneBytes(),
                    group.arenaBytes() + " bytes against " + plan.largestAloneBytes() + " for the largest alone");
            assertTrue(group.arenaBytes() < plan.sumAloneBytes());
            // The pipeline's order, then another: each run only needs its own inputs.
            assertSameAsAlone(group, alone, 0, 1, 2, 2, 0, 1);
            for (int m = 0; m < MODELS.size(); m++) {
                assertEquals(alone.get(m).persistentArenaBytes(), group.persistentArenaBytes(m));
            }
        } finally {
            alone.forEach(Session::close);
        }
    }

    /**
     * SVDF keeps its state in variables across runs (persistent, so per model) and the WHILE loop's body and
     * condition are subgraphs of their own beside the shared region: both come out as alone, run after run.
     */
    @Test
    void statefulAndControlFlowModelsKeepTheirOwnMemory(@TempDir Path temp) throws IOException {
        List<TfLiteModel> models = new ArrayList<>();
        for (String name : List.of("svdf_state", "while_loop")) {
            Path file = temp.resolve(name + ".tflite");
            Files.write(file, SampleModels.all().get(name).get());
            models.add(TfLiteModel.load(file));
        }
        models.add(TfLiteModel.load(TestModels.named(PIPELINE.get(0))));
        List<Session> alone = models.stream().map(m -> m.newSession(SessionOptions.DEFAULT)).toList();
        try (ArenaGroup group = ArenaGroup.of(models, SessionOptions.DEFAULT.withPlanner("best-of"))) {
            assertEquals(3, group.plan().models().get(1).subgraphs().size());
            assertSameAsAlone(group, alone, 0, 1, 2, 0, 0, 2, 1, 0);
        } finally {
            alone.forEach(Session::close);
            models.forEach(TfLiteModel::close);
        }
    }

    @Test
    void theGroupOutlivesItsModelsAndRefusesRunsOnceClosed() {
        List<TfLiteModel> own = List.of(TfLiteModel.load(TestModels.named(PIPELINE.get(0))),
                TfLiteModel.load(TestModels.named(PIPELINE.get(0))));
        ArenaGroup group = ArenaGroup.of(own, SessionOptions.DEFAULT.withPlanner("greedy-by-size"));
        own.forEach(TfLiteModel::close);
        Object[] values = inputs(group.inputs(0), 3);
        Outputs first = group.run(0, values);
        Outputs second = group.run(1, values);
        for (int o = 0; o < group.outputs(0).size(); o++) {
            assertArrayEquals(bytes(first, o), bytes(second, o));
        }
        assertEquals("no model 2; the group has 2 (0..1)",
                assertThrows(IllegalArgumentException.class, () -> group.run(2, values)).getMessage());
        group.close();
        assertEquals("arena group is closed",
                assertThrows(IllegalStateException.class, () -> group.run(0, values)).getMessage());
    }

    @Test
    void theNativePlannerIsRefusedByName() {
        String message = assertThrows(IllegalArgumentException.class,
                () -> ArenaGroup.of(MODELS, SessionOptions.DEFAULT)).getMessage();
        assertTrue(message.startsWith("an arena group is placed by a Java planner, and 'native' gives each model"),
                message);
    }
}
