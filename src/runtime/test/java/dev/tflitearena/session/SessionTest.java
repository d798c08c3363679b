package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.models.DemoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    static float[] randomInput(TensorInfo input, long seed) {
        Random random = new Random(seed);
        float[] values = new float[(int) input.elements()];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextFloat() * 2 - 1;
        }
        return values;
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "tflite", "best-of"})
    void everyWayOfPassingValuesGivesTheSameOutputsOnEveryPlanner(String planner) {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             Session session = model.newSession(SessionOptions.DEFAULT.withPlanner(planner))) {
            TensorInfo input = session.inputs().get(0);
            float[] values = randomInput(input, 7);
            ByteBuffer direct = ByteBuffer.allocateDirect((int) input.bytes()).order(ByteOrder.nativeOrder());
            direct.asFloatBuffer().put(values);

            Outputs expected = reference.run((Object) values);
            Outputs byIndex = session.run((Object) values);
            Outputs byName = session.run(Map.of(input.name(), values));
            Outputs byBuffer = session.run(direct);
            for (TensorInfo output : session.outputs()) {
                float[] want = expected.floats(output.index());
                assertArrayEquals(want, byIndex.floats(output.index()));
                assertArrayEquals(want, byName.floats(output.name()));
                assertArrayEquals(want, byBuffer.floats(output.index()));
                ByteBuffer copy = ByteBuffer.allocateDirect((int) output.bytes()).order(ByteOrder.nativeOrder());
                byBuffer.copyTo(output.index(), copy);
                float[] copied = new float[want.length];
                copy.flip().asFloatBuffer().get(copied);
                assertArrayEquals(want, copied);
            }
        }
    }

    @Test
    void wrongValuesAreRefusedWithWhatTheModelExpects() {
        try (TfLiteModel model = TfLiteModel.load(MODEL); Session session = model.newSession(SessionOptions.DEFAULT)) {
            TensorInfo input = session.inputs().get(0);
            String expected = input.toString();
            for (Object wrong : new Object[]{new float[10], new int[(int) input.elements()],
                    ByteBuffer.allocate((int) input.bytes()), ByteBuffer.allocateDirect(4)}) {
                var e = assertThrows(IllegalArgumentException.class, () -> session.run(wrong));
                assertTrue(e.getMessage().contains("the model takes " + expected), e.getMessage());
            }
            var tooMany = assertThrows(IllegalArgumentException.class,
                    () -> session.run(new float[(int) input.elements()], new float[1]));
            assertTrue(tooMany.getMessage().contains(expected), tooMany.getMessage());
            var unknown = assertThrows(IllegalArgumentException.class, () -> session.run(Map.of("nope", new float[1])));
            assertTrue(unknown.getMessage().contains("unknown [nope], missing [" + input.name() + "]"),
                    unknown.getMessage());
            Outputs outputs = session.run((Object) randomInput(input, 1));
            assertThrows(IllegalArgumentException.class, () -> outputs.ints(0));
            assertThrows(IllegalArgumentException.class, () -> outputs.floats("nope"));
        }
    }

    @Test
    void aBufferInTheOtherByteOrderIsRefusedNamingTheOrderExpected() throws Exception {
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN
                : ByteOrder.LITTLE_ENDIAN;
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session session = model.newSession(SessionOptions.DEFAULT);
             SessionPool pool = model.newPool(SessionOptions.DEFAULT, 1, Duration.ofSeconds(5))) {
            TensorInfo input = session.inputs().get(0);
            ByteBuffer wrong = ByteBuffer.allocateDirect((int) input.bytes()).order(other);
            wrong.asFloatBuffer().put(randomInput(input, 3));
            for (var e : new IllegalArgumentException[]{
                    assertThrows(IllegalArgumentException.class, () -> session.run(wrong)),
                    assertThrows(IllegalArgumentException.class, () -> pool.run(wrong))}) {
                assertTrue(e.getMessage().contains(other + " byte order")
                        && e.getMessage().contains("values are " + ByteOrder.nativeOrder()), e.getMessage());
            }
        }
    }

    @Test
    void singleByteInputsTakeABufferInEitherOrder(@TempDir Path dir) throws Exception {
        Path int8 = Files.write(dir.resolve("int8.tflite"), DemoModel.int8());
        try (TfLiteModel model = TfLiteModel.load(int8); Session session = model.newSession(SessionOptions.DEFAULT)) {
            TensorInfo input = session.inputs().get(0);
            byte[] values = new byte[(int) input.bytes()];
            new Random(5).nextBytes(values);
            byte[] expected = session.run((Object) values).bytes(0);
            for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(values.length).order(order).put(values).flip();
                assertArrayEquals(expected, session.run(buffer).bytes(0), order.toString());
            }
        }
    }

    @Test
    void unknownPlannerIsRefusedNamingTheValidOnes() {
        var e = assertThrows(IllegalArgumentException.class, () -> SessionOptions.DEFAULT.withPlanner("fastest"));
        assertTrue(e.getMessage().contains("tflite") && e.getMessage().contains("native"), e.getMessage());
    }

    @Test
    void everythingRefusesUseAfterClose() throws Exception {
        TfLiteModel model = TfLiteModel.load(MODEL);
        Session session = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite"));
        SessionPool pool = model.newPool(SessionOptions.DEFAULT, 2, Duration.ofSeconds(5));
        float[] values = randomInput(session.inputs().get(0), 3);
        model.close();
        // The model stays alive for what was made from it.
        float[] before = session.run((Object) values).floats(0);
        assertArrayEquals(before, pool.run((Object) values).floats(0));
        assertThrows(IllegalStateException.class, () -> model.newSession(SessionOptions.DEFAULT));

        session.close();
        pool.close();
        assertThrows(IllegalStateException.class, () -> session.run((Object) values));
        assertThrows(IllegalStateException.class, session::inputs);
        assertThrows(IllegalStateException.class, () -> session.resizeInput(0, 1, 128, 128, 3));
        assertThrows(IllegalStateException.class, () -> pool.run((Object) values));
        session.close();
        pool.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "tflite"})
    void resizingAnInputReplansAndRuns(String planner) {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session session = model.newSession(SessionOptions.DEFAULT.withPlanner(planner));
             Session reference = model.newSession(SessionOptions.DEFAULT)) {
            int[] shape = session.inputs().get(0).shape();
            int[] batch = shape.clone();
            batch[0] = 2;
            long arenaBefore = session.arenaBytes();
            session.resizeInput(session.inputs().get(0).name(), batch);
            reference.resizeInput(0, batch);
            assertArrayEquals(batch, session.inputs().get(0).shape());
            assertTrue(session.arenaBytes() > arenaBefore, session.arenaBytes() + " after " + arenaBefore);
            // The tflite planner is TFLite's own, re-implemented: its plan is as large as TFLite's arena.
            assertEquals(reference.arenaBytes(), session.arenaBytes());
            float[] values = randomInput(session.inputs().get(0), 5);
            assertEquals(Arrays.toString(reference.run((Object) values).floats(0)),
                    Arrays.toString(session.run((Object) values).floats(0)));
            var e = assertThrows(IllegalArgumentException.class, () -> session.run((Object) new float[10]));
            assertTrue(e.getMessage().contains(Arrays.toString(batch)), e.getMessage());
        }
    }
}
