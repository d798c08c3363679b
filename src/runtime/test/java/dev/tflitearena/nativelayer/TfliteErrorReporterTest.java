package dev.tflitearena.nativelayer;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TFLite's error reports reach SLF4J: this module's tests run with a provider that records them (RecordedLogs). */
class TfliteErrorReporterTest {
    @Test
    void whyAnOpRefusedToPrepareIsLoggedAtErrorUnderTheReportersName() {
        RecordedLogs.clear();
        assertFalse(TfliteErrorReporter.toStandardError(), "with an SLF4J provider, reports go to it alone");
        try (TfLiteModel model = TfLiteModel.load(TestModels.named("face_detection_short_range.tflite"));
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            // Four channels where the first convolution's filters take three.
            assertThrows(NativeException.class, () -> session.resizeInput(0, 1, 128, 128, 4));
        }
        List<RecordedLogs.Event> reports = RecordedLogs.of(TfliteErrorReporter.class.getName());
        assertFalse(reports.isEmpty(), "no report logged");
        assertTrue(reports.stream().allMatch(e -> e.level() == Level.ERROR), reports.toString());
        assertTrue(reports.stream().anyMatch(e -> e.message().matches("Node number \\d+ \\(CONV_2D\\) failed to prepare\\.")),
                reports.toString());
        // TFLite's format, its arguments in place: where the check is, and the values it found.
        assertTrue(reports.get(0).message().matches(".*/kernels/conv\\.cc:\\d+ input_channel % filter_input_channel "
                + "!= 0 \\(1 != 0\\)"), reports.get(0).message());
    }

    @Test
    void theVerifiersReasonForRefusingAFileIsLoggedToo(@TempDir Path temp) throws IOException {
        RecordedLogs.clear();
        byte[] bytes = Files.readAllBytes(TestModels.named("pose_landmark_lite.tflite"));
        Path truncated = Files.write(temp.resolve("truncated.tflite"), Arrays.copyOf(bytes, 100_000));
        assertThrows(NativeException.class, () -> TfLiteModel.load(truncated));
        assertEquals(List.of(new RecordedLogs.Event(TfliteErrorReporter.class.getName(), Level.ERROR,
                "The model is not a valid Flatbuffer buffer")), RecordedLogs.of(TfliteErrorReporter.class.getName()));
    }
}
