package dev.tflitearena.release;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegressionTest {
    private static final ReleaseReport BASELINE = Reports.of("2.12.0",
            Reports.model("short.tflite", 1_572_864, 768_072),
            Reports.model("full.tflite", 3_981_312, 3_952_388));

    @Test
    void anArenaThatGrowsRegressesOneThatShrinksDoesNot() {
        ReleaseReport current = Reports.of("2.15.0",
                Reports.model("short.tflite", 1_769_472, 768_072),
                Reports.model("full.tflite", 3_096_576, 3_952_388));
        List<Regression.Finding> findings = Regression.find(BASELINE, current, 0);
        assertEquals(1, findings.size(), findings::toString);
        assertEquals("short.tflite: rw arena 1,572,864 bytes -> 1,769,472 bytes (+12.5%, limit +0.0%)",
                findings.get(0).toString());
        assertTrue(Regression.find(BASELINE, current, 12.6).isEmpty());
    }

    @Test
    void aCrossCheckThatNowFindsADifferenceRegresses() {
        ReleaseReport current = Reports.of("2.15.0",
                Reports.model("short.tflite", 1_572_864, 768_072, false),
                Reports.model("full.tflite", 3_981_312, 3_952_388));
        assertEquals(List.of("short.tflite: the cross-check finds a difference: [builtin, 3 mismatches]"),
                Regression.find(BASELINE, current, 0).stream().map(Regression.Finding::toString).toList());
    }

    @Test
    void aModelMissingOrNoLongerBuiltRegresses() {
        ReleaseReport current = Reports.of("2.15.0", ModelReport.failed("short.tflite", "needs a custom op"));
        assertEquals(List.of("short.tflite: no longer runs: needs a custom op", "full.tflite: missing from the "
                + "current report"), Regression.find(BASELINE, current, 0).stream()
                .map(Regression.Finding::toString).toList());
    }

    @Test
    void theCommittedBaselinesShowThe212To215ArenaChange() throws IOException {
        ReleaseReport v212 = ReleaseReport.read(Path.of("tests/releases/baseline/2.12.json"));
        ReleaseReport v215 = ReleaseReport.read(Path.of("tests/releases/baseline/2.15.json"));
        List<String> arenaFindings = Regression.find(v212, v215, 0).stream()
                .map(Regression.Finding::toString).toList();
        assertTrue(arenaFindings.contains("face_detection_short_range.tflite: rw arena 1,572,864 bytes -> "
                + "1,769,472 bytes (+12.5%, limit +0.0%)"), arenaFindings::toString);
        assertEquals(3_096_576, v215.model("face_detection_full_range.tflite").orElseThrow().arenaBytes());
        assertEquals(2, v215.version(), "the committed baselines hold exact figures only");
    }
}
