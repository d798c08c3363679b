package dev.tflitearena.session;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The counters behind {@link Metrics}, updated by concurrent runs without a lock and without allocating:
 * latencies go to a fixed histogram of nanoseconds, exact below 16 ns and, above, in 16 buckets per power of
 * two, so that a bucket's upper bound is at most 1/16 above any latency in it.
 */
final class RunStats {
    private static final int SUB_BITS = 4;
    private static final int SUB_BUCKETS = 1 << SUB_BITS;
    /** Exact values below 16, then 16 buckets for each power of two from 2^4 to 2^62. */
    static final int BUCKETS = (Long.SIZE - SUB_BITS) * SUB_BUCKETS;

    private final AtomicLongArray latencies = new AtomicLongArray(BUCKETS);
    private final AtomicLong max = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong waitedNanos = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();

    /** A run that began at {@code startNanos} ({@link System#nanoTime()}) and returned its outputs, or threw. */
    void ran(long startNanos, boolean succeeded) {
        if (!succeeded) {
            failures.incrementAndGet();
            return;
        }
        record(Math.max(0, System.nanoTime() - startNanos));
    }

    /** A run of {@code nanos} that returned its outputs. */
    void record(long nanos) {
        latencies.incrementAndGet(bucket(nanos));
        max.accumulateAndGet(nanos, Math::max);
    }

    /** A call that found no session free and waited {@code nanos} for one, whether or not it got one. */
    void waited(long nanos) {
        waits.incrementAndGet();
        waitedNanos.addAndGet(nanos);
    }

    void timedOut() {
        timeouts.incrementAndGet();
    }

    Metrics snapshot() {
        long[] counts = new long[BUCKETS];
        long runs = 0;
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] = latencies.get(i);
            runs += counts[i];
        }
        long longest = max.get();
        return new Metrics(runs, failures.get(), percentile(counts, runs, 0.50, longest),
                percentile(counts, runs, 0.90, longest), percentile(counts, runs, 0.99, longest),
                Duration.ofNanos(longest), waits.get(), Duration.ofNanos(waitedNanos.get()), timeouts.get());
    }

    /** The upper bound of the bucket that holds the run of rank ceil(q * runs), at most {@code longest}. */
    private static Duration percentile(long[] counts, long runs, double q, long longest) {
        if (runs == 0) {
            return Duration.ZERO;
        }
        long rank = Math.max(1, (long) Math.ceil(q * runs));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Duration.ofNanos(Math.min(upperBound(i), longest));
            }
        }
        return Duration.ofNanos(longest);
    }

    static int bucket(long nanos) {
        if (nanos < SUB_BUCKETS) {
            return (int) nanos;
        }
        int power = Long.SIZE - 1 - Long.numberOfLeadingZeros(nanos);
        return ((power - SUB_BITS + 1) << SUB_BITS) + (int) ((nanos >>> (power - SUB_BITS)) - SUB_BUCKETS);
    }

    /** The largest latency that falls in bucket {@code index}. */
    static long upperBound(int index) {
        if (index < SUB_BUCKETS) {
            return index;
        }
        int shift = (index >> SUB_BITS) - 1;
        long lower = (long) (SUB_BUCKETS + (index & (SUB_BUCKETS - 1))) << shift;
        return lower + (1L << shift) - 1;
    }
}
