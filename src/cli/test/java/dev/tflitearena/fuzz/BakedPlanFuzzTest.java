package dev.tflitearena.fuzz;

import dev.tflitearena.TestModels;
import dev.tflitearena.cli.BakedCommandsProbe;
import dev.tflitearena.fuzz.BakedPlanTampering.Expect;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.progress.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded campaign of tampered baked plans on sample models with one, two and three subgraphs, variables and
 * int8, and on a real model: every field of the entry edited where it lies, raw bytes flipped and cut, the entry
 * copied onto other models. Through sessions, pools and the command line in child JVMs: no JVM may die, no
 * {@code IF_VALID} session throw, no {@code REQUIRED} session accept a wrong plan, no output differ.
 */
class BakedPlanFuzzTest {
    private static final int RAW_PER_MODEL = 8;

    @Test
    void noTamperedPlanKillsTheJvmOrGetsPastTheValidator(@TempDir Path out) throws IOException {
        Map<String, byte[]> models = new LinkedHashMap<>();
        for (String name : List.of("residual", "while_loop", "svdf_state")) {
            models.put(name, SampleModels.all().get(name).get());
        }
        models.put("face_detection_short_range",
                Files.readAllBytes(TestModels.named("face_detection_short_range.tflite")));
        BakedPlanFuzz.Report report = BakedPlanFuzz.run(models, new BakedPlanFuzz.Settings(RAW_PER_MODEL, 1, out,
                IsolatedRun.Limits.DEFAULT, BakedCommandsProbe.class), Progress.NONE);
        System.out.println("BakedPlanFuzzTest: " + report.files() + " files " + report.expected() + ", sessions "
                + report.sessions() + ", command line " + report.commandLine() + ", " + report.elapsed());
        assertEquals(Map.of(), report.skipped());
        assertTrue(report.findings().isEmpty(), () -> report.findings().size() + " findings:\n" + String.join("\n",
                report.findings().stream().limit(20).map(BakedPlanFuzz.Finding::describe).toList()));
        assertTrue(report.files() >= models.size() * 40, report.files() + " files");
        assertTrue(report.expected().get(Expect.REFUSED) > report.files() / 2, report.expected().toString());
        assertTrue(report.expected().get(Expect.ACCEPTED) >= models.size() * 5, report.expected().toString());
    }
}
