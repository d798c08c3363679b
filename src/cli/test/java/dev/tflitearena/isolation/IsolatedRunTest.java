package dev.tflitearena.isolation;

import dev.tflitearena.TestModels;
import dev.tflitearena.fuzz.CrashingMutant;
import dev.tflitearena.fuzz.ModelMutator;
import dev.tflitearena.isolation.IsolatedRun.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IsolatedRunTest {
    /** Found by fuzz-models --seed 7: an operator input of int8_convnet set to -1 (optional) crashes DEQUANTIZE's prepare. */

    @Test
    void aGoodModelIsOkAndATruncatedOneRefused(@TempDir Path dir) throws IOException {
        Path good = TestModels.named("face_detection_short_range.tflite");
        Path truncated = dir.resolve("truncated.tflite");
        Files.write(truncated, Arrays.copyOf(Files.readAllBytes(good), 1000));
        List<IsolatedRun.Result> results = IsolatedRun.checkAll(List.of(good, truncated), IsolatedRun.Limits.DEFAULT);
        assertEquals(Outcome.OK, results.get(0).outcome(), results.get(0).detail());
        assertEquals(Outcome.REFUSED, results.get(1).outcome());
        assertTrue(results.get(1).detail().contains("verifier"), results.get(1).detail());
    }

    @Test
    void aCrashIsCountedAgainstItsModelAndTheNextGoesToANewChild(@TempDir Path dir) throws IOException {
        ModelMutator.Mutant mutant = CrashingMutant.of();
        Path crashing = Files.write(dir.resolve("crashing.tflite"), mutant.bytes());
        Path good = TestModels.named("face_detection_short_range.tflite");
        List<IsolatedRun.Result> results = IsolatedRun.checkAll(List.of(crashing, good), IsolatedRun.Limits.DEFAULT);
        assertEquals(Outcome.CRASHED, results.get(0).outcome(), mutant.mutation() + ": " + results.get(0).detail());
        assertEquals("SIGSEGV", results.get(0).signal(), results.get(0).detail());
        assertEquals("compare", results.get(0).stage());
        assertEquals(Outcome.OK, results.get(1).outcome(), results.get(1).detail());
    }

    @Test
    void aChildOverItsTimeIsKilled() {
        Path slow = TestModels.named("pose_landmark_heavy.tflite");
        IsolatedRun.Limits instant = new IsolatedRun.Limits(Duration.ofMillis(1), 512, 4096);
        assertEquals(Outcome.TIMED_OUT, IsolatedRun.checkAll(List.of(slow), instant).get(0).outcome());
    }
}
