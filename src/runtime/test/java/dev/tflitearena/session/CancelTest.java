package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CancelTest {
    /** Runs tried: a cancel that lands before a run's invoke starts has no effect, so one run may end unstopped. */
    private static final int ATTEMPTS = 20;

    @Test
    void aCancelledRunThrowsCountsAsAFailureAndTheSessionRunsOn() throws Exception {
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (TfLiteModel model = TfLiteModel.load(TestModels.named("pose_landmark_heavy.tflite"));
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            float[] values = SessionTest.randomInput(session.inputs().get(0), 9);
            float[] expected = session.run((Object) values).floats(0);
            session.cancel();
            assertArrayEquals(expected, session.run((Object) values).floats(0), "a cancel with no run in progress is lost");

            int cancelled = 0;
            int completed = 0;
            for (int attempt = 0; attempt < ATTEMPTS && cancelled == 0; attempt++) {
                Future<Outputs> run = threads.submit(() -> session.run((Object) values));
                while (!run.isDone()) {
                    session.cancel();
                }
                try {
                    assertArrayEquals(expected, run.get().floats(0));
                    completed++;
                } catch (ExecutionException e) {
                    assertTrue(e.getCause() instanceof CancellationException, e.toString());
                    cancelled++;
                }
            }
            assertEquals(1, cancelled, "no run was stopped in " + ATTEMPTS);
            assertArrayEquals(expected, session.run((Object) values).floats(0), "the session runs on after a cancel");
            Metrics metrics = session.metrics();
            assertEquals(1, metrics.failures());
            assertEquals(3 + completed, metrics.runs());
        } finally {
            threads.shutdownNow();
        }
    }
}
