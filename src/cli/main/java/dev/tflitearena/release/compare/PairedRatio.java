package dev.tflitearena.release.compare;

import java.util.Arrays;
import java.util.Locale;

/**
 * How much slower side B is than side A, from times the two sides took in the same rounds: the ratio B/A with a
 * confidence interval.
 *
 * <p>Each round gives one log ratio, ln(b/a). The estimate is their Hodges-Lehmann estimate, the median of the
 * Walsh averages (every mean of two rounds' log ratios, a round with itself included), and the interval is the
 * one the exact Wilcoxon signed-rank test gives: the Walsh averages ranked {@code k+1} and {@code M-k}, where
 * {@code k} is the largest signed-rank count whose tail probability is at most half of 1 - confidence. The rounds
 * are paired, since both sides of a round share the machine's state, so the paired (signed-rank) test applies,
 * not the two-sample Mann-Whitney one; it assumes only that a round's log ratio is symmetric about the true one,
 * and it stays exact with ten rounds, where a bootstrap's percentiles cover too little. Logs make a ratio and
 * its inverse symmetric: 2x slower and 2x faster are equally far from no change.
 *
 * @param ratio  the estimate of B/A
 * @param lo     the interval's lower end; 0 when there are too few rounds for any interval at this confidence
 * @param hi     the interval's upper end; infinite then
 * @param rounds the rounds compared
 */
public record PairedRatio(double ratio, double lo, double hi, int rounds) {
    /** The verdict an interval gives: slower or faster only when it leaves out no change (a ratio of 1). */
    public enum Verdict {
        SLOWER, FASTER, NO_CHANGE;

        /** As JSON spells it: "slower", "faster", "no_change". */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * B/A over paired rounds: {@code a[i]} and {@code b[i]} were timed in round {@code i}.
     *
     * @param confidence the interval's coverage, below 1 (0.95 for 95%)
     */
    public static PairedRatio of(double[] a, double[] b, double confidence) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("side A has " + a.length + " rounds, side B " + b.length);
        }
        if (a.length == 0) {
            throw new IllegalArgumentException("no rounds to compare");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be between 0 and 1, got " + confidence);
        }
        int n = a.length;
        double[] logs = new double[n];
        for (int i = 0; i < n; i++) {
            if (!(a[i] > 0 && b[i] > 0) || Double.isInfinite(a[i]) || Double.isInfinite(b[i])) {
                throw new IllegalArgumentException("round " + i + ": times must be positive and finite, got "
                        + a[i] + " and " + b[i]);
            }
            logs[i] = Math.log(b[i] / a[i]);
        }
        double[] walsh = new double[n * (n + 1) / 2];
        int w = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                walsh[w++] = (logs[i] + logs[j]) / 2;
            }
        }
        Arrays.sort(walsh);
        int m = walsh.length;
        double median = m % 2 == 1 ? walsh[m / 2] : (walsh[m / 2 - 1] + walsh[m / 2]) / 2;
        int k = lowerRank(n, 1 - confidence);
        if (k < 0) {
            return new PairedRatio(Math.exp(median), 0, Double.POSITIVE_INFINITY, n);
        }
        return new PairedRatio(Math.exp(median), Math.exp(walsh[k]), Math.exp(walsh[m - 1 - k]), n);
    }

    /**
     * The largest count {@code k} with P(T <= k) <= alpha / 2, T the signed-rank statistic of {@code n} rounds
     * under no change; -1 when even T = 0 is more likely than that (too few rounds for the confidence).
     */
    static int lowerRank(int n, double alpha) {
        double[] p = signedRankProbabilities(n);
        double tail = 0;
        int k = -1;
        for (int t = 0; t < p.length; t++) {
            tail += p[t];
            if (tail > alpha / 2 * (1 + 1e-12)) {
                break;
            }
            k = t;
        }
        return k;
    }

    /**
     * The exact distribution of the signed-rank statistic of {@code n} rounds under no change: each rank
     * 1..n counts with probability 1/2, independently.
     */
    static double[] signedRankProbabilities(int n) {
        double[] p = new double[n * (n + 1) / 2 + 1];
        p[0] = 1;
        for (int rank = 1; rank <= n; rank++) {
            for (int t = rank * (rank + 1) / 2; t >= 0; t--) {
                p[t] = (p[t] + (t >= rank ? p[t - rank] : 0)) / 2;
            }
        }
        return p;
    }

    /** The fewest rounds that can give an interval at this confidence (and so a verdict other than no change). */
    public static int minimumRounds(double confidence) {
        int n = 1;
        while (lowerRank(n, 1 - confidence) < 0) {
            n++;
        }
        return n;
    }

    public Verdict verdict() {
        if (lo > 1) {
            return Verdict.SLOWER;
        }
        return hi < 1 ? Verdict.FASTER : Verdict.NO_CHANGE;
    }

    /**
     * "slower by 12.3% [9.1, 15.2]", "faster by 4.0% [2.2, 5.9]" or "no change detected [-1.2, +0.8]%"; without an
     * interval, "too few rounds for an interval (estimate +3.1%)": no verdict, and never "no change detected".
     */
    @Override
    public String toString() {
        if (hi == Double.POSITIVE_INFINITY) {
            return String.format(Locale.ROOT, "too few rounds for an interval (estimate %+.1f%%)", percent(ratio));
        }
        String interval = String.format(Locale.ROOT, "[%+.1f, %+.1f]%%", percent(lo), percent(hi));
        return switch (verdict()) {
            case SLOWER -> String.format(Locale.ROOT, "slower by %.1f%% %s", percent(ratio), interval);
            case FASTER -> String.format(Locale.ROOT, "faster by %.1f%% %s", -percent(ratio), interval);
            case NO_CHANGE -> "no change detected " + interval;
        };
    }

    private static double percent(double ratio) {
        return (ratio - 1) * 100;
    }
}
