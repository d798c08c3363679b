package dev.tflitearena.session;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunStatsTest {
    @Test
    void everyLatencyFallsInABucketWhoseUpperBoundIsAtMostASixteenthAboveIt() {
        int previous = -1;
        for (long nanos = 0; nanos < 1L << 62; nanos = nanos < 64 ? nanos + 1 : nanos + nanos / 7) {
            int bucket = RunStats.bucket(nanos);
            long upper = RunStats.upperBound(bucket);
            assertTrue(bucket >= previous, "buckets rise with the latency: " + nanos);
            assertTrue(upper >= nanos && upper <= nanos + nanos / 16, nanos + " in a bucket up to " + upper);
            assertTrue(bucket == 0 || RunStats.upperBound(bucket - 1) < nanos, "the bucket below ends under " + nanos);
            previous = bucket;
        }
        assertEquals(RunStats.BUCKETS - 1, RunStats.bucket(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, RunStats.upperBound(RunStats.BUCKETS - 1));
    }

    @Test
    void percentilesOfKnownLatenciesAreWithinASixteenthAndNeverAboveTheLongest() {
        RunStats stats = new RunStats();
        assertEquals(new Metrics(0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, Duration.ZERO, 0),
                stats.snapshot());
        for (int micros = 1; micros <= 1000; micros++) {
            stats.record(micros * 1000L);
        }
        stats.ran(System.nanoTime(), false);
        stats.waited(5_000);
        stats.waited(7_000);
        stats.timedOut();
        Metrics metrics = stats.snapshot();
        assertEquals(1000, metrics.runs());
        assertEquals(1, metrics.failures());
        assertWithinASixteenth(500_000, metrics.p50());
        assertWithinASixteenth(900_000, metrics.p90());
        assertWithinASixteenth(990_000, metrics.p99());
        assertEquals(Duration.ofMillis(1), metrics.max());
        assertEquals(2, metrics.waits());
        assertEquals(Duration.ofNanos(12_000), metrics.waited());
        assertEquals(1, metrics.timeouts());

        RunStats one = new RunStats();
        one.record(1_000_003);
        assertEquals(Duration.ofNanos(1_000_003), one.snapshot().p50(), "a bucket's bound is cut to the longest run");
    }

    private static void assertWithinASixteenth(long expectedNanos, Duration actual) {
        long nanos = actual.toNanos();
        assertTrue(nanos >= expectedNanos && nanos <= expectedNanos + expectedNanos / 16,
                actual + " for " + expectedNanos + " ns");
    }
}
