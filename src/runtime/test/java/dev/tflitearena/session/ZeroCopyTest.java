package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Caller buffers bound to inputs and outputs, outputs read where they lie, and runs that read some outputs only. */
class ZeroCopyTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    private static float[] floats(ByteBuffer buffer) {
        float[] values = new float[buffer.remaining() / Float.BYTES];
        buffer.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer().get(values);
        return values;
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "tflite", "xnnpack"})
    void boundBuffersAreReadAndWrittenInPlace(String setting) {
        SessionOptions options = setting.equals("xnnpack") ? SessionOptions.DEFAULT.withXnnpack(true)
                : SessionOptions.DEFAULT.withPlanner(setting);
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(options);
             Session session = model.newSession(options)) {
            TensorInfo input = session.inputs().get(0);
            ByteBuffer in = input.allocateDirect();
            session.bindInput(input.name(), in);
            ByteBuffer[] out = new ByteBuffer[session.outputs().size()];
            for (TensorInfo output : session.outputs()) {
                out[output.index()] = output.allocateDirect();
                session.bindOutput(output.name(), out[output.index()]);
            }
            for (long seed = 1; seed <= 2; seed++) {
                float[] values = SessionTest.randomInput(input, seed);
                in.asFloatBuffer().put(values); // the caller writes the input where TFLite reads it
                Outputs got = session.run();
                Outputs want = reference.run((Object) values);
                for (TensorInfo output : session.outputs()) {
                    assertArrayEquals(want.floats(output.index()), floats(out[output.index()]), output + " " + seed);
                    assertArrayEquals(want.floats(output.index()), got.floats(output.index()));
                }
                assertArrayEquals(values, floats(session.inputValues(0)));
            }
            // Unbound, the tensors are back in the interpreter's memory: the caller's buffers no longer change.
            session.unbind(input.name());
            session.outputs().forEach(o -> session.unbind(o.name()));
            float[] before = floats(out[0]);
            float[] values = SessionTest.randomInput(input, 9);
            Outputs got = session.run((Object) values);
            assertArrayEquals(reference.run((Object) values).floats(0), got.floats(0));
            assertArrayEquals(before, floats(out[0]));
        }
    }

    @Test
    void buffersThatCannotBeBoundAreRefusedSayingWhy() {
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN
                : ByteOrder.LITTLE_ENDIAN;
        try (TfLiteModel model = TfLiteModel.load(MODEL); Session session = model.newSession(SessionOptions.DEFAULT)) {
            TensorInfo input = session.inputs().get(0);
            int bytes = (int) input.bytes();
            var heap = assertThrows(IllegalArgumentException.class,
                    () -> session.bindInput(input.name(), ByteBuffer.allocate(bytes)));
            assertTrue(heap.getMessage().contains("cannot be bound to a heap ByteBuffer of " + bytes + " bytes"),
                    heap.getMessage());
            var small = assertThrows(IllegalArgumentException.class,
                    () -> session.bindInput(input.name(), ByteBuffer.allocateDirect(16)));
            assertTrue(small.getMessage().contains("a direct ByteBuffer of 16 bytes: it takes a direct one of exactly"
                    + " its bytes"), small.getMessage());
            var order = assertThrows(IllegalArgumentException.class,
                    () -> session.bindInput(input.name(), input.allocateDirect().order(other)));
            assertTrue(order.getMessage().contains(other + " byte order"), order.getMessage());
            ByteBuffer unaligned = ByteBuffer.allocateDirect(bytes + 128).alignedSlice(64).position(4).slice()
                    .limit(bytes).order(ByteOrder.nativeOrder());
            var aligned = assertThrows(IllegalArgumentException.class, () -> session.bindInput(input.name(), unaligned));
            assertTrue(aligned.getMessage().contains("is not a multiple of 64 bytes")
                    && aligned.getMessage().contains("TensorInfo.allocateDirect()"), aligned.getMessage());
            var name = assertThrows(IllegalArgumentException.class,
                    () -> session.bindOutput("nope", input.allocateDirect()));
            assertTrue(name.getMessage().contains("no output named 'nope'; the model gives 0 'regressors'"),
                    name.getMessage());
            var missing = assertThrows(IllegalArgumentException.class, session::run);
            assertTrue(missing.getMessage().contains("got 0 input values"), missing.getMessage());
        }
    }

    @Test
    void aRunReadsTheOutputsSelectedAndTheRestCanBeViewedWithoutACopy() {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            TensorInfo input = session.inputs().get(0);
            TensorInfo first = session.outputs().get(0);
            TensorInfo second = session.outputs().get(1);
            float[] values = SessionTest.randomInput(input, 4);
            Outputs want = reference.run((Object) values);

            Outputs selected = session.run(Map.of(input.name(), values), Set.of(second.name()));
            assertEquals(1, selected.infos().size());
            assertArrayEquals(want.floats(second.name()), selected.floats(second.name()));
            var notRead = assertThrows(IllegalArgumentException.class, () -> selected.floats(first.name()));
            assertTrue(notRead.getMessage().contains("no output named '" + first.name() + "' in this run; it read [1 '"),
                    notRead.getMessage());
            var unknown = assertThrows(IllegalArgumentException.class,
                    () -> session.run(Map.of(input.name(), values), Set.of("nope")));
            assertTrue(unknown.getMessage().contains("outputs unknown [nope]; the model gives 0 '"), unknown.getMessage());

            Outputs none = session.run(Map.of(input.name(), values), Set.of());
            assertEquals(0, none.infos().size());
            ByteBuffer view = session.outputView(first.name());
            assertTrue(view.isReadOnly() && view.isDirect());
            assertThrows(ReadOnlyBufferException.class, () -> view.put(0, (byte) 1));
            assertArrayEquals(want.floats(first.index()), floats(view));
            // The view is the output's memory: the next run rewrites it.
            float[] next = SessionTest.randomInput(input, 5);
            session.run(Map.of(input.name(), next), Set.of());
            assertArrayEquals(reference.run((Object) next).floats(first.index()), floats(view));
        }
    }

    /** The session API's example in docs/server-teams.md ("Inference in a JVM server"), as it stands there. */
    @Test
    void theGuideExampleRunsAsItSays() throws Exception {
        try (TfLiteModel model = TfLiteModel.load(Files.readAllBytes(MODEL));
             Session session = model.newSession(SessionOptions.DEFAULT.withThreads(2));
             Session reference = model.newSession(SessionOptions.DEFAULT)) {
            TensorInfo input = session.inputs().get(0);
            assertEquals("0 'input' float32 [1, 128, 128, 3] (49152 values, 196608 bytes)", input.toString());
            float[] image = SessionTest.randomInput(input, 6);
            ByteBuffer pixels = input.allocateDirect();
            session.bindInput(input.name(), pixels);
            pixels.asFloatBuffer().put(image);
            Outputs out = session.run(Map.of(), Set.of("classificators"));
            float[] scores = out.floats("classificators");
            ByteBuffer boxes = session.outputView("regressors");
            Outputs want = reference.run((Object) image);
            assertArrayEquals(want.floats("classificators"), scores);
            assertArrayEquals(want.floats("regressors"), floats(boxes));
        }
    }
}
