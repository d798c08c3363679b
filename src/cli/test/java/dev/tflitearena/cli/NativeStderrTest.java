package dev.tflitearena.cli;

import dev.tflitearena.TestModels;
import dev.tflitearena.fuzz.CrashingMutant;
import dev.tflitearena.fuzz.ModelMutator;
import dev.tflitearena.isolation.Supervisor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TFLite's own lines on standard error: held back while a command runs, shown with its error or with --verbose. */
class NativeStderrTest {
    private static final String XNNPACK_INFO = "INFO: Created TensorFlow Lite XNNPACK delegate for CPU.";
    private static final String VERIFIER_ERROR = "ERROR: The model is not a valid Flatbuffer buffer";
    private static final String MODEL = TestModels.named("face_detection_short_range.tflite").toString();

    @TempDir
    Path temp;

    @Test
    void aCommandThatSucceedsPrintsNothingOfTflitesButWithVerbose() {
        Cli.Result quiet = Cli.runJvm(Map.of(), "plan", MODEL, "--xnnpack");
        assertEquals(0, quiet.status(), quiet.err());
        assertEquals("", quiet.err());

        Cli.Result verbose = Cli.runJvm(Map.of(), "--verbose", "plan", MODEL, "--xnnpack");
        assertEquals(0, verbose.status(), verbose.err());
        assertEquals(XNNPACK_INFO, verbose.err().strip());

        Cli.Result after = Cli.runJvm(Map.of(), "plan", MODEL, "--xnnpack", "--verbose");
        assertEquals(XNNPACK_INFO, after.err().strip());
    }

    @Test
    void aFailureShowsWhatTflitePrintedAfterItsErrorInTheChildJvmAndInThisOne() throws IOException {
        byte[] bytes = Files.readAllBytes(TestModels.named("pose_landmark_lite.tflite"));
        Path truncated = Files.write(temp.resolve("truncated.tflite"), Arrays.copyOf(bytes, 100_000));
        List<String> expected = List.of("tflite-arena plan: " + truncated + ": not a valid TFLite model (the "
                        + "flatbuffer verifier rejected it; the file may be truncated or corrupt)",
                "native code (TFLite) printed:", "  " + VERIFIER_ERROR);
        for (Map<String, String> environment : List.of(Map.<String, String>of(), Map.of(Main.IN_PROCESS_VARIABLE, "1"))) {
            Cli.Result r = Cli.runJvm(environment, "plan", truncated.toString());
            assertEquals(Main.EXIT_ERROR, r.status(), r.err());
            assertEquals(expected, r.err().lines().toList(), environment.toString());
        }
    }

    @Test
    void aCrashShowsWhatTflitePrintedBeforeIt() throws IOException {
        // A verified model whose DEQUANTIZE prepare crashes TFLite (see SupervisorTest).
        ModelMutator.Mutant mutant = CrashingMutant.of();
        Path crashing = Files.write(temp.resolve("crashing.tflite"), mutant.bytes());

        Cli.Result r = Cli.runJvm(Map.of(), "compare", crashing.toString(), "--xnnpack");

        assertEquals(Supervisor.EXIT_CRASHED, r.status(), r.err());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.get(0).startsWith("tflite-arena: native code crashed"), r.err());
        assertEquals(List.of("native code (TFLite) printed:", "  " + XNNPACK_INFO), lines.subList(1, lines.size()));
        Files.delete(Path.of(lines.get(0).substring(lines.get(0).lastIndexOf(" is ") + 4, lines.get(0).length() - 1)));
    }
}
