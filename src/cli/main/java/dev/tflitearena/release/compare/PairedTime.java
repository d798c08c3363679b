package dev.tflitearena.release.compare;

import java.util.Arrays;

/**
 * How much slower B is than A, measured so that what changes over time (the machine's clock speed, other
 * processes, the caches) weighs on both alike: samples of A and B alternate, A B, B A, A B, ..., each pair
 * giving the ratio B / A. Alternating the order inside the pairs keeps whatever favours the first or the second
 * sample of a pair out of the ratio. A sample is the fastest of runs timed one by one, at least {@value #MIN_RUNS}
 * and as many as fill {@link SampleTime#MIN_SAMPLE_NANOS} (judged by A), in milliseconds. The slowdown is the
 * fastest of B's samples over the fastest of A's: the statistic {@code releases --compare} keeps per round, and
 * one that another process, which only ever adds time, moves least.
 *
 * @param aMillis    the fastest of A's samples
 * @param bMillis    the fastest of B's samples
 * @param ratio      bMillis / aMillis
 * @param lowerRatio the lower quartile of the pairs' B / A
 * @param upperRatio the upper quartile
 */
record PairedTime(double aMillis, double bMillis, double ratio, double lowerRatio, double upperRatio) {
    static final int MIN_RUNS = 3;

    /** Runs each action {@code warmup} times unmeasured, then takes {@code pairs} pairs of samples. */
    static PairedTime measure(int warmup, int pairs, SampleTime.Action a, SampleTime.Action b) throws Exception {
        if (pairs < 1) {
            throw new IllegalArgumentException("need at least 1 pair, got " + pairs);
        }
        for (int i = 0; i < warmup; i++) {
            a.run();
            b.run();
        }
        long start = System.nanoTime();
        a.run();
        long once = Math.max(1, System.nanoTime() - start);
        int runs = (int) Math.max(MIN_RUNS, (SampleTime.MIN_SAMPLE_NANOS + once - 1) / once);
        double[] as = new double[pairs];
        double[] bs = new double[pairs];
        double[] ratios = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            if (i % 2 == 0) {
                as[i] = sample(a, runs);
                bs[i] = sample(b, runs);
            } else {
                bs[i] = sample(b, runs);
                as[i] = sample(a, runs);
            }
            ratios[i] = bs[i] / as[i];
        }
        double fastestA = SampleTime.fastest(as);
        double fastestB = SampleTime.fastest(bs);
        return new PairedTime(fastestA, fastestB, fastestB / fastestA, quantile(ratios, 0.25),
                quantile(ratios, 0.75));
    }

    /** How much slower B is, in percent: the ratio less 1. */
    double slowdownPercent() {
        return (ratio - 1) * 100;
    }

    /** The fastest of {@code runs} runs, in milliseconds. */
    private static double sample(SampleTime.Action action, int runs) throws Exception {
        double[] times = new double[runs];
        for (int r = 0; r < runs; r++) {
            long start = System.nanoTime();
            action.run();
            times[r] = (System.nanoTime() - start) / 1e6;
        }
        return SampleTime.fastest(times);
    }

    /** The {@code q}-quantile, linear between the two nearest ranks (as R's and NumPy's default). */
    static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double rank = (sorted.length - 1) * q;
        int below = (int) Math.floor(rank);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
    }
}
