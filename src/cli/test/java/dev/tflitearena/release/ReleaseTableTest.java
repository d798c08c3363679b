package dev.tflitearena.release;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReleaseTableTest {
    @Test
    void eachReleaseIsARowAndChangesFromThePreviousOneAreListed() {
        List<ReleaseReport> reports = List.of(
                Reports.of("2.12.0", Reports.model("short.tflite", 1_572_864, 768_072)),
                Reports.of("2.15.0", Reports.model("short.tflite", 1_769_472, 768_072),
                        ModelReport.failed("custom.tflite", "needs a custom op")),
                Reports.of("2.18.0", Reports.model("short.tflite", 1_769_472, 768_072, false)));
        String table = ReleaseTable.markdown(reports, 0);
        assertTrue(table.contains("| short.tflite | 2.12.0 | 271 | 1572864 | 768072 | identical |  |"), table);
        assertTrue(table.contains("| short.tflite | 2.15.0 | 271 | 1769472 | 768072 | identical | arena +12.5% |"),
                table);
        assertTrue(table.contains("| short.tflite | 2.18.0 | 271 | 1769472 | 768072 | DIFFERENT (builtin: 3 "
                + "mismatches) |  |"), table);
        assertTrue(table.contains("| custom.tflite | 2.15.0 | | | | not built (see 2.15.json) | |"), table);
        assertFalse(table.contains(" ms"), "times belong to interleaved comparisons: " + table);
    }
}
