package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.models.DemoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sessions whose plan frees the graph inputs after their last consumer. */
class ReleaseInputsSessionTest {
    private static final Path MODEL = TestModels.named("hand_landmark_full.tflite");

    @ParameterizedTest
    @ValueSource(strings = {"tflite", "best-of"})
    void outputsAreTheNativeOnesRunAfterRunInASmallerArena(String planner) {
        SessionOptions keeping = SessionOptions.DEFAULT.withPlanner(planner);
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             Session kept = model.newSession(keeping);
             Session released = model.newSession(keeping.withReleaseInputs(true))) {
            TensorInfo input = released.inputs().get(0);
            for (long seed = 1; seed <= 3; seed++) {
                float[] values = SessionTest.randomInput(input, seed);
                Outputs expected = reference.run((Object) values);
                Outputs got = released.run((Object) values);
                for (TensorInfo output : released.outputs()) {
                    assertArrayEquals(expected.floats(output.index()), got.floats(output.index()), output.toString());
                }
            }
            assertTrue(released.arenaBytes() < kept.arenaBytes(),
                    released.arenaBytes() + " >= " + kept.arenaBytes());
        }
    }

    @Test
    void aReleasedInputCannotBeReadBackAKeptOneCan() {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session kept = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite"));
             Session released = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite").withReleaseInputs(true))) {
            float[] values = SessionTest.randomInput(kept.inputs().get(0), 9);
            kept.run((Object) values);
            float[] readBack = new float[values.length];
            kept.inputValues(0).asFloatBuffer().get(readBack);
            assertArrayEquals(values, readBack, "TFLite's rule keeps the input as written");

            released.run((Object) values);
            var e = assertThrows(IllegalStateException.class, () -> released.inputValues(0));
            assertTrue(e.getMessage().contains("released after its last consumer"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> released.run(), "every run writes every input");
        }
    }

    @Test
    void anInputBoundToACallersBufferIsNotReleasedIntoOtherTensors() {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             Session released = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite").withReleaseInputs(true))) {
            TensorInfo input = released.inputs().get(0);
            ByteBuffer buffer = input.allocateDirect();
            released.bindInput(input.name(), buffer);
            for (long seed = 1; seed <= 2; seed++) {
                float[] values = SessionTest.randomInput(input, seed);
                buffer.asFloatBuffer().put(values);
                Outputs got = released.run();
                assertArrayEquals(reference.run((Object) values).floats(0), got.floats(0));
                float[] readBack = new float[values.length];
                released.inputValues(0).asFloatBuffer().get(readBack);
                assertArrayEquals(values, readBack, "the caller's memory holds no planned tensor");
            }
        }
    }

    @Test
    void theDemoChainRunsInTheBoundWithTheInputReleased(@TempDir Path dir) throws Exception {
        Path demo = Files.write(dir.resolve("demo.tflite"), DemoModel.float32());
        SessionOptions tflite = SessionOptions.DEFAULT.withPlanner("tflite");
        try (TfLiteModel model = TfLiteModel.load(demo);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             Session kept = model.newSession(tflite);
             Session released = model.newSession(tflite.withReleaseInputs(true))) {
            float[] values = SessionTest.randomInput(released.inputs().get(0), 2);
            assertArrayEquals(reference.run((Object) values).floats(0), released.run((Object) values).floats(0));
            assertEquals(1_806_336, kept.arenaBytes(), "TFLite's bound, the input kept");
            assertEquals(1_404_928, released.arenaBytes(), "the input's bytes reused after node 0");
        }
    }

    @Test
    void theNativePlannerCannotReleaseInputs() {
        var e = assertThrows(IllegalArgumentException.class, () -> SessionOptions.DEFAULT.withReleaseInputs(true));
        assertTrue(e.getMessage().contains("needs a Java planner"), e.getMessage());
    }

    @Test
    void aPoolOfReleasingSessionsGivesTheNativeOutputs() throws Exception {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             SessionPool pool = model.newPool(SessionOptions.DEFAULT.withPlanner("tflite").withReleaseInputs(true), 2,
                     java.time.Duration.ofSeconds(30))) {
            float[] values = SessionTest.randomInput(reference.inputs().get(0), 4);
            Outputs expected = reference.run((Object) values);
            Outputs got = pool.run((Object) values);
            for (TensorInfo output : reference.outputs()) {
                assertArrayEquals(expected.floats(output.index()), got.floats(output.index()), output.toString());
            }
        }
    }
}
