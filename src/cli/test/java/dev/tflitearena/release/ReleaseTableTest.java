package dev.tflitearena.release;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ReleaseTableTest {
    @Test
    void eachReleaseIsARowAndChangesFromThePreviousOneAreListed() {
        List<ReleaseReport> reports = List.of(
                Reports.of("2.12.0", Reports.model("short.tflite", 1_572_864, 768_072, 10.0)),
                Reports.of("2.15.0", Reports.model("short.tflite", 1_769_472, 768_072, 10.5),
                        ModelReport.failed("custom.tflite", "needs a custom op")),
                Reports.of("2.18.0", Reports.model("short.tflite", 1_769_472, 768_072, 20.0)));
        String table = ReleaseTable.markdown(reports, new ReleaseTable.Thresholds(0, 25));
        assertTrue(table.contains("| short.tflite | 2.12.0 | 271 | 1572864 | 768072 | 0.500 | 0.200 | 10.0 "
                + "| identical |  |"), table);
        assertTrue(table.contains("| short.tflite | 2.15.0 | 271 | 1769472 | 768072 | 0.500 | 0.200 | 10.5 "
                + "| identical | arena +12.5% |"), table);
        assertTrue(table.contains("| 20.0 | identical | invoke +90.5% |"), table);
        assertTrue(table.contains("| custom.tflite | 2.15.0 | | | | | | | not built (see 2.15.json) | |"), table);
    }
}
