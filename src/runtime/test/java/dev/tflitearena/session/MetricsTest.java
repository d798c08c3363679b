package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What sessions and pools count of their runs on a real model, against what the test measures around them. */
class MetricsTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");
    private static final int RUNS = 40;

    @Test
    void aSessionCountsItsRunsAndFailuresAndItsLatenciesAreWithinTheCallersOwn() {
        try (TfLiteModel model = TfLiteModel.load(MODEL)) {
            Session session = model.newSession(SessionOptions.DEFAULT);
            float[] values = SessionTest.randomInput(session.inputs().get(0), 3);
            long[] measured = new long[RUNS];
            for (int i = 0; i < RUNS; i++) {
                long start = System.nanoTime();
                session.run((Object) values);
                measured[i] = System.nanoTime() - start;
            }
            assertThrows(IllegalArgumentException.class, () -> session.run((Object) new float[3]));
            session.close();

            Metrics metrics = session.metrics();
            Arrays.sort(measured);
            assertEquals(RUNS, metrics.runs());
            assertEquals(1, metrics.failures());
            assertTrue(metrics.p50().compareTo(Duration.ZERO) > 0, metrics.toString());
            assertTrue(metrics.p50().compareTo(metrics.p90()) <= 0 && metrics.p90().compareTo(metrics.p99()) <= 0
                    && metrics.p99().compareTo(metrics.max()) <= 0, metrics.toString());
            // The session times less than its caller does around the same call; a bucket bound adds up to 1/16.
            assertTrue(metrics.max().toNanos() <= measured[RUNS - 1], metrics + " against " + measured[RUNS - 1]);
            long median = measured[RUNS / 2 - 1];
            assertTrue(metrics.p50().toNanos() <= median + median / 16, metrics + " against a median of " + median);
            assertEquals(0, metrics.waits());
            assertEquals(Duration.ZERO, metrics.waited());
        }
    }

    @Test
    void runsByNameWithAnOutputSelectionAndSignatureRunsAreCountedToo() {
        try (TfLiteModel model = TfLiteModel.load(MODEL); Session session = model.newSession(SessionOptions.DEFAULT)) {
            TensorInfo input = session.inputs().get(0);
            float[] values = SessionTest.randomInput(input, 5);
            session.run(java.util.Map.of(input.name(), values));
            session.run(java.util.Map.of(input.name(), values), java.util.Set.of(session.outputs().get(0).name()));
            assertThrows(IllegalArgumentException.class, () -> session.run(java.util.Map.of("no such input", values)));
            assertEquals(2, session.metrics().runs());
            assertEquals(1, session.metrics().failures());
        }
        try (TfLiteModel model = TfLiteModel.load(dev.tflitearena.models.SampleModels.addAndMultiplySignatures());
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            session.runSignature("add", java.util.Map.of("x", new float[4], "y", new float[4]));
            assertThrows(IllegalArgumentException.class, () -> session.runSignature("add", java.util.Map.of()));
            assertEquals(1, session.metrics().runs());
            assertEquals(1, session.metrics().failures());
        }
    }

    @Test
    void aPoolCountsTheCallsThatWaitedHowLongAndThoseThatTimedOut() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             SessionPool pool = model.newPool(SessionOptions.DEFAULT, 1, Duration.ofMillis(300))) {
            float[] values = SessionTest.randomInput(pool.inputs().get(0), 1);
            HeldCall held = new HeldCall(pool, values, threads);
            long start = System.nanoTime();
            assertThrows(TimeoutException.class, () -> pool.run((Object) values));
            long timedOutAfter = System.nanoTime() - start;

            Thread waiting = new Thread(() -> {
                try {
                    pool.run((Object) values);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            waiting.start();
            // The second caller is parked on the pool's semaphore: its wait is under way.
            while (waiting.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            held.release();
            waiting.join(TimeUnit.SECONDS.toMillis(60));
            Future<?> refused = threads.submit(() -> pool.run((Object) new float[3]));
            assertTrue(assertThrows(Exception.class, refused::get).getCause() instanceof IllegalArgumentException);

            Metrics metrics = pool.metrics();
            assertEquals(2, metrics.runs(), metrics.toString());
            assertEquals(1, metrics.failures());
            assertEquals(2, metrics.waits());
            assertEquals(1, metrics.timeouts());
            assertTrue(metrics.waited().compareTo(Duration.ofMillis(300)) >= 0, metrics.toString());
            assertTrue(metrics.waited().toNanos() <= timedOutAfter + TimeUnit.SECONDS.toNanos(60), metrics.toString());
            assertTrue(metrics.p99().compareTo(metrics.max()) <= 0 && metrics.max().compareTo(Duration.ZERO) > 0);
        } finally {
            threads.shutdownNow();
        }
    }
}
