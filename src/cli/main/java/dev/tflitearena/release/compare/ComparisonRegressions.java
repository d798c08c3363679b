package dev.tflitearena.release.compare;

import dev.tflitearena.release.Regression;
import dev.tflitearena.release.Regression.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What regressed from A to B in one interleaved comparison: an arena of B's that grows by more than the arena
 * limit, a time whose interval puts B slower by more than the latency limit (its lower end above it), and a model
 * not compared. Never two medians alone: a median above the limit with an interval reaching below it is noise
 * the run could not rule out.
 */
public final class ComparisonRegressions {
    private ComparisonRegressions() {
    }

    /**
     * @param maxArenaGrowth   in percent; 0 refuses any growth
     * @param maxLatencyGrowth in percent
     * @param requireAll       a model neither side could run regresses too
     */
    public static List<Finding> find(ReleaseComparison comparison, double maxArenaGrowth, double maxLatencyGrowth,
                                     boolean requireAll) {
        List<Finding> findings = new ArrayList<>();
        for (ReleaseComparison.ArenaChange change : comparison.arenas()) {
            Regression.check(findings, change.model(), "rw arena", Regression.BYTES, change.a().arenaBytes(),
                    change.b().arenaBytes(), maxArenaGrowth);
            Regression.check(findings, change.model(), "persistent arena", Regression.BYTES,
                    change.a().persistentBytes(), change.b().persistentBytes(), maxArenaGrowth);
        }
        for (ReleaseComparison.Comparison c : comparison.comparisons()) {
            if ((c.lo() - 1) * 100 > maxLatencyGrowth) {
                findings.add(new Finding(c.model(), String.format(Locale.ROOT, "%s %s, %.3f ms -> %.3f ms (limit "
                        + "%+.1f%%, which the interval's lower end exceeds)", c.metric(), c.text(), c.aMs(), c.bMs(),
                        maxLatencyGrowth)));
            }
        }
        for (ReleaseComparison.NotCompared left : comparison.notCompared()) {
            findings.add(new Finding(left.model(), "not compared: " + left.why()));
        }
        if (requireAll) {
            for (ReleaseComparison.NotCompared left : comparison.notRunnable()) {
                findings.add(new Finding(left.model(), "neither side can run it: " + left.why()));
            }
        }
        return findings;
    }
}
