package dev.tflitearena.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a release engineer's CI refuses. Against a baseline report, model by model, on exact figures only: an
 * arena that grows by more than the arena limit, a cross-check that finds a difference the baseline did not, a
 * model the current report lacks or could not build. Times are never compared across runs: an interleaved
 * comparison gates on its intervals ({@code compare.ComparisonRegressions}).
 */
public final class Regression {
    public static final String BYTES = "%,.0f bytes";

    private Regression() {
    }

    /** One thing that regressed, said in a line. */
    public record Finding(String model, String what) {
        @Override
        public String toString() {
            return model + ": " + what;
        }
    }

    /** @param maxArenaGrowth in percent; 0 refuses any growth */
    public static List<Finding> find(ReleaseReport baseline, ReleaseReport current, double maxArenaGrowth) {
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
            if (before.identical() && !after.identical()) {
                findings.add(new Finding(before.model(), "the cross-check finds a difference: " + after.crossChecks()
                        .stream().filter(c -> !c.identical()).map(c -> c.settings() + ", " + c.mismatches()
                                + " mismatches").toList()));
            }
        }
        return findings;
    }

    /** Adds a finding when {@code figure} grew from {@code before} to {@code after} by more than {@code maxGrowth}%. */
    public static void check(List<Finding> findings, String model, String figure, String format, double before,
                             double after, double maxGrowth) {
        Growth growth = new Growth(before, after);
        if (growth.percent() > maxGrowth) {
            findings.add(new Finding(model, String.format(Locale.ROOT, "%s " + format + " -> " + format
                    + " (%s, limit %+.1f%%)", figure, before, after, growth, maxGrowth)));
        }
    }
}
