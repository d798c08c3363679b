package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.presets.NativeException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A model from a path, a byte array, a heap or a direct buffer: the same model, whose bytes it owns. */
class ModelSourcesTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    @Test
    void everySourceRunsAsTheFileDoesAfterTheCallersBytesAreOverwritten() throws IOException {
        byte[] bytes = Files.readAllBytes(MODEL);
        byte[] array = bytes.clone();
        ByteBuffer heap = ByteBuffer.allocate(bytes.length + 10).position(10).put(bytes).position(10);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        try (TfLiteModel file = TfLiteModel.load(MODEL);
             TfLiteModel fromArray = TfLiteModel.load(array);
             TfLiteModel fromHeap = TfLiteModel.load(heap);
             TfLiteModel fromDirect = TfLiteModel.load(direct)) {
            assertEquals(10, heap.position(), "the caller's buffer is left alone");
            assertEquals(Path.of("in-memory model of " + bytes.length + " bytes"), fromArray.path());
            // The models read their own copies: what the caller does with its bytes changes nothing.
            Arrays.fill(array, (byte) 0);
            heap.put(10, new byte[bytes.length]);
            direct.put(0, new byte[bytes.length]);
            try (Session reference = file.newSession(SessionOptions.DEFAULT)) {
                float[] input = SessionTest.randomInput(reference.inputs().get(0), 2);
                float[] want = reference.run((Object) input).floats(0);
                for (TfLiteModel model : new TfLiteModel[]{fromArray, fromHeap, fromDirect}) {
                    try (Session session = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite"))) {
                        assertEquals(reference.inputs(), session.inputs());
                        assertArrayEquals(want, session.run((Object) input).floats(0), model.path().toString());
                    }
                }
            }
        }
    }

    @Test
    void bytesThatAreNoModelAreRefused() throws IOException {
        var empty = assertThrows(NativeException.class, () -> TfLiteModel.load(new byte[0]));
        assertTrue(empty.getMessage().contains("in-memory model of 0 bytes: no bytes"), empty.getMessage());
        byte[] truncated = Arrays.copyOf(Files.readAllBytes(MODEL), 5000);
        var refused = assertThrows(NativeException.class, () -> TfLiteModel.load(ByteBuffer.wrap(truncated)));
        assertTrue(refused.getMessage().contains("in-memory model of 5000 bytes: not a valid TFLite model"),
                refused.getMessage());
    }
}
