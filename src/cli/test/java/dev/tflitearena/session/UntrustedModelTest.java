package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.fuzz.CrashingMutant;
import dev.tflitearena.fuzz.ModelMutator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UntrustedModelTest {
    @Test
    void aModelThatWouldCrashTheProcessIsRefusedWithWhatHappenedInTheChild(@TempDir Path dir) throws IOException {
        ModelMutator.Mutant mutant = CrashingMutant.of();
        Path crashing = Files.write(dir.resolve("crashing.tflite"), mutant.bytes());
        NativeException refused = assertThrows(NativeException.class, () -> TfLiteModel.loadUntrusted(crashing));
        assertTrue(refused.getMessage().startsWith(crashing + ": the isolated check found the model unsafe to load:"
                + " crashed at step 'compare'"), refused.getMessage());
        assertTrue(refused.getMessage().contains("SIGSEGV"), refused.getMessage());
    }

    @Test
    void aGoodModelLoadsFromTheBytesCheckedAndRunsAsALoadedOne() {
        Path file = TestModels.named("face_detection_short_range.tflite");
        try (TfLiteModel untrusted = TfLiteModel.loadUntrusted(file);
             TfLiteModel trusted = TfLiteModel.load(file);
             Session checked = untrusted.newSession(SessionOptions.DEFAULT.withPlanner("tflite"));
             Session reference = trusted.newSession(SessionOptions.DEFAULT)) {
            float[] input = SessionTest.randomInput(checked.inputs().get(0), 3);
            Outputs got = checked.run((Object) input);
            Outputs want = reference.run((Object) input);
            for (TensorInfo output : checked.outputs()) {
                assertArrayEquals(want.floats(output.index()), got.floats(output.index()));
            }
        }
    }

    @Test
    void aModelInMemoryIsCheckedInTheChildAsAFileIs() throws IOException {
        byte[] bytes = Files.readAllBytes(TestModels.named("face_detection_short_range.tflite"));
        try (TfLiteModel fromArray = TfLiteModel.loadUntrusted(bytes);
             TfLiteModel fromBuffer = TfLiteModel.loadUntrusted(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip());
             TfLiteModel trusted = TfLiteModel.load(bytes);
             Session reference = trusted.newSession(SessionOptions.DEFAULT)) {
            float[] input = SessionTest.randomInput(reference.inputs().get(0), 4);
            float[] want = reference.run((Object) input).floats(0);
            for (TfLiteModel model : new TfLiteModel[]{fromArray, fromBuffer}) {
                try (Session session = model.newSession(SessionOptions.DEFAULT)) {
                    assertArrayEquals(want, session.run((Object) input).floats(0));
                }
            }
        }
        byte[] truncated = Arrays.copyOf(bytes, 5000);
        NativeException refused = assertThrows(NativeException.class, () -> TfLiteModel.loadUntrusted(truncated));
        assertTrue(refused.getMessage().startsWith("in-memory model of 5000 bytes: the isolated check found the model "
                + "unsafe to load: refused at step 'load'"), refused.getMessage());
    }

    @Test
    void aTruncatedModelIsRefusedByTheVerifierInTheChild(@TempDir Path dir) throws IOException {
        byte[] whole = Files.readAllBytes(TestModels.named("face_detection_short_range.tflite"));
        Path truncated = Files.write(dir.resolve("truncated.tflite"), Arrays.copyOf(whole, 5000));
        NativeException refused = assertThrows(NativeException.class, () -> TfLiteModel.loadUntrusted(truncated));
        assertTrue(refused.getMessage().contains("refused at step 'load'")
                && refused.getMessage().contains("verifier"), refused.getMessage());
    }
}
