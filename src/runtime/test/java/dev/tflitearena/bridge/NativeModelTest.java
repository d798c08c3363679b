package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.presets.NativeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NativeModelTest {
    @TempDir
    Path temp;

    private void assertRefused(Path file) {
        NativeException e = assertThrows(NativeException.class, () -> NativeModel.load(file));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }

    @Test
    void truncatedCorruptEmptyAndMissingFilesAreRefusedByName() throws IOException {
        byte[] model = Files.readAllBytes(TestModels.named("hand_landmark_lite.tflite"));
        Path truncated = Files.write(temp.resolve("truncated.tflite"), Arrays.copyOf(model, model.length / 3));
        assertRefused(truncated);
        byte[] corrupt = model.clone();
        Arrays.fill(corrupt, 0, 64, (byte) 0x5A);
        assertRefused(Files.write(temp.resolve("corrupt.tflite"), corrupt));
        assertRefused(Files.write(temp.resolve("empty.tflite"), new byte[0]));
        assertRefused(temp.resolve("missing.tflite"));
    }

    @Test
    void aModelClosedBeforeItsInterpreterStaysAliveUntilTheInterpreterCloses() {
        NativeModel model = NativeModel.load(TestModels.named("face_detection_short_range.tflite"));
        NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
        model.close();
        assertDoesNotThrow(() -> interpreter.allocateTensors());
        interpreter.close();
        assertThrows(IllegalStateException.class, () -> NativeInterpreter.build(model, InterpreterSettings.DEFAULT));
        assertThrows(IllegalStateException.class, () -> interpreter.allocateTensors());
    }

    @Test
    void itsInterpretersShareOneOpResolverThatOutlivesEachOfThem() {
        try (NativeModel model = NativeModel.load(TestModels.named("face_detection_short_range.tflite"))) {
            for (InterpreterSettings settings : List.of(InterpreterSettings.DEFAULT,
                    InterpreterSettings.DEFAULT.withXnnpack(true))) {
                assertSame(model.resolver(settings.defaultXnnpackDelegate()),
                        model.resolver(settings.defaultXnnpackDelegate()));
                NativeInterpreter first = NativeInterpreter.build(model, settings);
                NativeInterpreter second = NativeInterpreter.build(model, settings);
                first.allocateTensors();
                first.invoke();
                first.close();
                assertDoesNotThrow(() -> {
                    second.allocateTensors();
                    second.invoke();
                });
                second.close();
                try (NativeInterpreter third = NativeInterpreter.build(model, settings)) {
                    assertDoesNotThrow(() -> {
                        third.allocateTensors();
                        third.invoke();
                    });
                }
            }
        }
    }
}
