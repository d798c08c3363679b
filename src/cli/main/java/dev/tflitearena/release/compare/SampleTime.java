package dev.tflitearena.release.compare;

import java.util.Arrays;

/**
 * An in-process timing, not a JMH benchmark: {@code warmup} samples run unmeasured, so that the JIT and the
 * caches settle; then {@code samples} are taken with the wall clock. An action faster than
 * {@link #MIN_SAMPLE_NANOS} is repeated within each sample, and the sample is the time per run, since a single
 * sub-millisecond run is mostly clock and scheduling noise.
 *
 * <p>A round keeps its fastest sample. Another process on the machine only ever adds time, and on two shared
 * cores it does so often and by a lot (a third of an invoke, seen here, for hundreds of milliseconds at a time);
 * the fastest sample is the one it disturbed least, while a median of five still moves whenever three are hit.
 */
final class SampleTime {
    static final long MIN_SAMPLE_NANOS = 20_000_000;

    /** Something timed; it may throw, which ends the measurement. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private SampleTime() {
    }

    /** The fastest sample's time of one run of {@code action}, in milliseconds. */
    static double fastestMillis(int warmup, int samples, Action action) throws Exception {
        Sampler sampler = warmedUp(warmup, action);
        double fastest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < samples; i++) {
            fastest = Math.min(fastest, sampler.sampleMillis());
        }
        return fastest;
    }

    /** An action warmed up, and how many runs of it make a sample. */
    record Sampler(Action action, long repeats) {
        /** One sample: the time of one run, in milliseconds. */
        double sampleMillis() throws Exception {
            long start = System.nanoTime();
            for (long r = 0; r < repeats; r++) {
                action.run();
            }
            return (System.nanoTime() - start) / 1e6 / repeats;
        }
    }

    /**
     * Runs {@code warmup} unmeasured samples as long as measured ones, since a few single runs of a
     * sub-millisecond action leave the JIT where a fresh JVM started; the last one says how many runs make a
     * sample.
     */
    static Sampler warmedUp(int warmup, Action action) throws Exception {
        long repeats = 0;
        for (int i = 0; i < warmup; i++) {
            repeats = 0;
            long start = System.nanoTime();
            do {
                action.run();
                repeats++;
            } while (System.nanoTime() - start < MIN_SAMPLE_NANOS);
        }
        if (repeats == 0) {
            long start = System.nanoTime();
            action.run();
            long once = Math.max(1, System.nanoTime() - start);
            repeats = Math.max(1, (MIN_SAMPLE_NANOS + once - 1) / once);
        }
        return new Sampler(action, repeats);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static double fastest(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }
}
