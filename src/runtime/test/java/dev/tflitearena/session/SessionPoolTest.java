package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionPoolTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");
    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 1_000;
    /** Distinct inputs, so that a call reading another call's activations or outputs shows. */
    private static final int INPUTS = 5;

    /**
     * The pool's sessions share what derives from constants; the reference session shares nothing. XNNPACK
     * leaves nothing to share on this model (it takes every DEQUANTIZE and CONV_2D) but must stay correct.
     */
    @ParameterizedTest(name = "planner {0}, XNNPACK {1}")
    @CsvSource({"native, false", "tflite, false", "native, true"})
    void concurrentCallersGetTheSingleThreadedOutputs(String planner, boolean xnnpack) throws Exception {
        try (TfLiteModel model = TfLiteModel.load(MODEL)) {
            SessionOptions options = SessionOptions.DEFAULT.withPlanner(planner).withXnnpack(xnnpack);
            List<float[]> inputs = new ArrayList<>();
            List<float[][]> expected = new ArrayList<>();
            try (Session single = model.newSession(options)) {
                for (int k = 0; k < INPUTS; k++) {
                    float[] values = SessionTest.randomInput(single.inputs().get(0), k);
                    Outputs outputs = single.run((Object) values);
                    inputs.add(values);
                    expected.add(single.outputs().stream().map(o -> outputs.floats(o.index())).toArray(float[][]::new));
                }
            }
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            try (SessionPool pool = model.newPool(options, 4, Duration.ofSeconds(30))) {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    done.add(threads.submit(() -> {
                        for (int i = 0; i < CALLS_PER_THREAD; i++) {
                            int k = (thread + i) % INPUTS;
                            Outputs outputs = pool.run((Object) inputs.get(k));
                            for (int o = 0; o < expected.get(k).length; o++) {
                                assertArrayEquals(expected.get(k)[o], outputs.floats(o), "call " + i + " of thread " + thread);
                            }
                        }
                        return CALLS_PER_THREAD;
                    }));
                }
                int calls = 0;
                for (Future<Integer> f : done) {
                    calls += f.get();
                }
                assertEquals(THREADS * CALLS_PER_THREAD, calls);
            } finally {
                threads.shutdownNow();
            }
        }
    }

    /** Model, pool and a sharing session closed in every order: whatever is still open keeps running right. */
    @ParameterizedTest(name = "closing {0}")
    @ValueSource(strings = {"model pool session", "model session pool", "pool model session", "pool session model",
            "session model pool", "session pool model"})
    void closingModelPoolAndSessionInAnyOrderLeavesTheOthersRunning(String order) throws Exception {
        TfLiteModel model = TfLiteModel.load(MODEL);
        float[] values;
        float[] expected;
        try (Session unshared = model.newSession(SessionOptions.DEFAULT)) {
            values = SessionTest.randomInput(unshared.inputs().get(0), 4);
            expected = unshared.run((Object) values).floats(0);
        }
        SessionPool pool = model.newPool(SessionOptions.DEFAULT, 2, Duration.ofSeconds(30));
        Session session = model.newSession(SessionOptions.DEFAULT.withSharing(true));
        assertTrue(session.sharedBytes() > 0);
        assertEquals(0, session.persistentArenaBytes(), "every persistent tensor of this model is shared");
        Map<String, AutoCloseable> open = new LinkedHashMap<>(Map.of("model", model, "pool", pool, "session", session));
        for (String next : order.split(" ")) {
            open.remove(next).close();
            if (open.containsKey("pool")) {
                assertArrayEquals(expected, pool.run((Object) values).floats(0), "pool after closing " + next);
            }
            if (open.containsKey("session")) {
                assertArrayEquals(expected, session.run((Object) values).floats(0), "session after closing " + next);
            }
        }
        assertThrows(IllegalStateException.class, () -> model.newSession(SessionOptions.DEFAULT.withSharing(true)));
    }

    @Test
    void aCallTimesOutWhenNoSessionIsFreeAndCloseWaitsForTheCallInFlight() throws Exception {
        try (TfLiteModel model = TfLiteModel.load(MODEL)) {
            SessionPool pool = model.newPool(SessionOptions.DEFAULT, 1, Duration.ofMillis(50));
            float[] values = SessionTest.randomInput(pool.inputs().get(0), 1);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                HeldCall inFlight = new HeldCall(pool, values, threads);
                assertThrows(TimeoutException.class, () -> pool.run((Object) values));
                Future<?> closing = threads.submit(pool::close);
                assertThrows(TimeoutException.class, () -> closing.get(200, TimeUnit.MILLISECONDS));
                Outputs outputs = inFlight.release();
                closing.get(60, TimeUnit.SECONDS);
                assertEquals(pool.outputs().get(0).elements(), outputs.floats(0).length);
                assertThrows(IllegalStateException.class, () -> pool.run((Object) values));
            } finally {
                threads.shutdownNow();
            }
        }
    }
}
