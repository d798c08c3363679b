package dev.tflitearena.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A current release report against a baseline, model by model: what a release engineer's CI refuses. A model
 * regresses when either arena grows by more than the arena limit, when one invoke takes longer by more than
 * the latency limit, or when the current report lacks it or could not build it.
 */
public final class Regression {
    private static final String BYTES = "%,.0f bytes";
    private static final String MILLIS = "%.2f ms";

    private Regression() {
    }

    /** One thing that regressed, said in a line. */
    public record Finding(String model, String what) {
        @Override
        public String toString() {
            return model + ": " + what;
        }
    }

    /** @param maxArenaGrowth and {@code maxLatencyGrowth} in percent; 0 refuses any growth */
    public static List<Finding> find(ReleaseReport baseline, ReleaseReport current, double maxArenaGrowth,
                                     double maxLatencyGrowth) {
        List<Finding> findings = new ArrayList<>();
        for (ModelReport before : baseline.models()) {
            if (!before.ok()) {
                continue;
            }
            Optional<ModelReport> found = current.model(before.model());
            if (found.isEmpty()) {
                findings.add(new Finding(before.model(), "missing from the current report"));
                continue;
            }
            ModelReport after = found.get();
            if (!after.ok()) {
                findings.add(new Finding(before.model(), "no longer runs: " + after.error()));
                continue;
            }
            check(findings, before.model(), "rw arena", BYTES, before.arenaBytes(), after.arenaBytes(),
                    maxArenaGrowth);
            check(findings, before.model(), "persistent arena", BYTES, before.persistentBytes(),
                    after.persistentBytes(), maxArenaGrowth);
            check(findings, before.model(), "invoke", MILLIS, before.invokeMs(), after.invokeMs(), maxLatencyGrowth);
        }
        return findings;
    }

    private static void check(List<Finding> findings, String model, String figure, String format, double before,
                              double after, double maxGrowth) {
        Growth growth = new Growth(before, after);
        if (growth.percent() > maxGrowth) {
            findings.add(new Finding(model, String.format(Locale.ROOT, "%s " + format + " -> " + format
                    + " (%s, limit %+.1f%%)", figure, before, after, growth, maxGrowth)));
        }
    }
}
