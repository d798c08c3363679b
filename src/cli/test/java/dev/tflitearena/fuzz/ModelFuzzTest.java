package dev.tflitearena.fuzz;

import dev.tflitearena.TestModels;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.isolation.IsolatedRun.Outcome;
import dev.tflitearena.progress.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded sample of hostile models: 200 through the pure-Java reader in this JVM, the first 40 of them
 * through every native step in child JVMs. This JVM must see only reads and refusals; what the children
 * meet is counted, and whatever crashed, hung or ran out of memory is saved with its reproduction.
 */
class ModelFuzzTest {
    @Test
    void hostileModelsAreReadOrRefusedAndNativeTroubleStaysInTheChild(@TempDir Path out) throws IOException {
        ModelFuzz.Settings settings = new ModelFuzz.Settings(200, 40, 1, Duration.ZERO, out,
                IsolatedRun.Limits.DEFAULT);
        ModelFuzz.Report report = ModelFuzz.run(settings, ModelFuzz.sources(TestModels.directory()), Progress.NONE);
        System.out.println("ModelFuzzTest: in-process " + report.inProcess() + ", isolated " + report.isolated());
        assertTrue(report.parentClean(), () -> report.findings().get(0).describe());
        assertEquals(200, report.inProcess().values().stream().mapToInt(Integer::intValue).sum());
        assertEquals(40, report.isolated().values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(report.inProcess().get(Outcome.REFUSED) > 0 && report.isolated().get(Outcome.REFUSED) > 0);
        assertTrue(report.slowestRead().compareTo(Duration.ofSeconds(5)) < 0, report.slowestRead().toString());
        for (ModelFuzz.Finding finding : report.findings()) {
            assertTrue(Files.isRegularFile(finding.saved()), finding.describe());
        }
    }
}
