package dev.tflitearena.release;

import java.util.Arrays;

/**
 * A simple in-process timing, not a JMH benchmark: the action runs {@code warmup} times unmeasured, so that
 * the JIT and the caches settle; then {@code runs} samples are taken with the wall clock and the median kept,
 * as it ignores the odd pause of the collector or of another process. An action faster than
 * {@link #MIN_SAMPLE_NANOS} is repeated within each sample, and the sample is the time per run, since a
 * single sub-millisecond run is mostly clock and scheduling noise.
 */
final class MedianTime {
    static final long MIN_SAMPLE_NANOS = 20_000_000;

    /** Something timed; it may throw, which ends the measurement. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private MedianTime() {
    }

    static double millis(int warmup, int runs, Action action) throws Exception {
        for (int i = 0; i < warmup; i++) {
            action.run();
        }
        long start = System.nanoTime();
        action.run();
        long once = Math.max(1, System.nanoTime() - start);
        long repeats = Math.max(1, (MIN_SAMPLE_NANOS + once - 1) / once);
        double[] times = new double[runs];
        for (int i = 0; i < runs; i++) {
            start = System.nanoTime();
            for (long r = 0; r < repeats; r++) {
                action.run();
            }
            times[i] = (System.nanoTime() - start) / 1e6 / repeats;
        }
        // Microseconds are the most a wall clock shared with other processes can say.
        return Math.round(median(times) * 1000) / 1000.0;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
