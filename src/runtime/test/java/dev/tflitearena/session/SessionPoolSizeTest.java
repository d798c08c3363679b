package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A pool reshaping its inputs, growing and shrinking while calls are on its sessions. */
class SessionPoolSizeTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    private static float[] outputOf(Session session, float[] values) {
        return session.run((Object) values).floats(0);
    }

    @ParameterizedTest(name = "planner {0}")
    @ValueSource(strings = {"native", "tflite"})
    void aResizeWaitsForTheCallInFlightThenReachesEverySession(String planner) throws Exception {
        SessionOptions options = SessionOptions.DEFAULT.withPlanner(planner);
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             SessionPool pool = model.newPool(options, 2, Duration.ofSeconds(60))) {
            int[] shape = pool.inputs().get(0).shape();
            int[] batch = shape.clone();
            batch[0] = 2;
            float[] single = SessionTest.randomInput(pool.inputs().get(0), 1);
            float[] expectedSingle = outputOf(reference, single);
            HeldCall held = new HeldCall(pool, single, threads);

            Future<?> resizing = threads.submit(() -> pool.resizeInput(pool.inputs().get(0).name(), batch));
            assertThrows(TimeoutException.class, () -> resizing.get(300, TimeUnit.MILLISECONDS),
                    "the resize waits for the call on the old shape");
            assertArrayEquals(expectedSingle, held.release().floats(0), "the call in flight ran on the old shape");
            resizing.get(60, TimeUnit.SECONDS);

            assertArrayEquals(batch, pool.inputs().get(0).shape());
            reference.resizeInput(0, batch);
            float[] values = SessionTest.randomInput(pool.inputs().get(0), 2);
            float[] expected = outputOf(reference, values);
            // Two calls at once: both sessions run, and both have the new shape.
            HeldCall first = new HeldCall(pool, values, threads);
            HeldCall second = new HeldCall(pool, values, threads);
            assertArrayEquals(expected, first.release().floats(0));
            assertArrayEquals(expected, second.release().floats(0));
            var refused = assertThrows(IllegalArgumentException.class, () -> pool.run((Object) single));
            assertTrue(refused.getMessage().contains(Arrays.toString(batch)), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pool.resizeInput(1, batch));
            assertThrows(IllegalArgumentException.class, () -> pool.resizeInput("nope", batch));
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aPoolGrowsAndShrinksWithoutClosingASessionInUseOrTheMemoryItsSessionsShare() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        TfLiteModel model = TfLiteModel.load(MODEL);
        try (SessionPool pool = model.newPool(SessionOptions.DEFAULT, 1, Duration.ofMillis(200))) {
            float[] values;
            float[] expected;
            try (Session reference = model.newSession(SessionOptions.DEFAULT)) {
                values = SessionTest.randomInput(reference.inputs().get(0), 6);
                expected = outputOf(reference, values);
            }
            pool.addSessions(2);
            assertEquals(3, pool.size());
            List<HeldCall> held = List.of(new HeldCall(pool, values, threads), new HeldCall(pool, values, threads),
                    new HeldCall(pool, values, threads));
            assertThrows(TimeoutException.class, () -> pool.run((Object) values), "three sessions, three in use");

            Future<?> shrinking = threads.submit(() -> pool.removeSessions(2));
            assertThrows(TimeoutException.class, () -> shrinking.get(300, TimeUnit.MILLISECONDS),
                    "no session is free to remove");
            assertArrayEquals(expected, held.get(0).release().floats(0));
            assertThrows(TimeoutException.class, () -> shrinking.get(300, TimeUnit.MILLISECONDS),
                    "one session is free, two are to go");
            assertArrayEquals(expected, held.get(1).release().floats(0));
            shrinking.get(60, TimeUnit.SECONDS);
            assertEquals(1, pool.size());
            // The call still on the session that stays runs to its end.
            assertArrayEquals(expected, held.get(2).release().floats(0));

            // The model closed and two sharing sessions gone: the one left still reaches the shared region.
            model.close();
            assertArrayEquals(expected, pool.run((Object) values).floats(0));
            assertThrows(IllegalStateException.class, () -> pool.addSessions(1), "a new session needs the model");
            var e = assertThrows(IllegalArgumentException.class, () -> pool.removeSessions(1));
            assertTrue(e.getMessage().contains("at least one must stay"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pool.addSessions(0));
        } finally {
            model.close();
            threads.shutdownNow();
        }
    }
}
