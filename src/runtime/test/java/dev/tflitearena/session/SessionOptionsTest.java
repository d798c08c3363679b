package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.ProcessThreads;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TFLite's and XNNPACK's thread counts in the session options, and their errors. */
class SessionOptionsTest {

    @Test
    void xnnpackAloneIsTflitesDefaultDelegateAndXnnpackThreadsTheProjectsOwn() {
        InterpreterSettings plain = SessionOptions.DEFAULT.withXnnpack(true).settings();
        assertNull(plain.xnnpackOptions());
        InterpreterSettings threaded = SessionOptions.DEFAULT.withThreads(2).withXnnpackThreads(3).settings();
        assertTrue(threaded.xnnpack());
        assertEquals(2, threaded.threads());
        assertEquals(3, threaded.xnnpackOptions().threads());
        assertFalse(SessionOptions.DEFAULT.withXnnpackThreads(3).withXnnpack(false).settings().xnnpack());
    }

    @Test
    void badThreadCountsAreRefusedNamingTheValue() {
        var tflite = assertThrows(IllegalArgumentException.class, () -> SessionOptions.DEFAULT.withThreads(0));
        assertTrue(tflite.getMessage().contains("TFLite threads must be at least 1, or -1"), tflite.getMessage());
        var xnnpack = assertThrows(IllegalArgumentException.class, () -> SessionOptions.DEFAULT.withXnnpackThreads(0));
        assertTrue(xnnpack.getMessage().contains("XNNPACK threads must be at least 1; got 0"), xnnpack.getMessage());
        var off = assertThrows(IllegalArgumentException.class,
                () -> new SessionOptions(SessionOptions.NATIVE, false, -1, 2, false));
        assertTrue(off.getMessage().contains("need XNNPACK on"), off.getMessage());
    }

    @Test
    void aSessionWithXnnpackThreadsComputesWhatTflitesDefaultDelegateDoes() {
        try (TfLiteModel model = TfLiteModel.load(TestModels.named("face_detection_short_range.tflite"));
             Session reference = model.newSession(SessionOptions.DEFAULT.withXnnpack(true));
             Session session = model.newSession(SessionOptions.DEFAULT.withXnnpackThreads(2).withPlanner("tflite"))) {
            float[] values = new float[(int) session.inputs().get(0).bytes() / Float.BYTES];
            java.util.Arrays.fill(values, 0.25f);
            assertArrayEquals(reference.run((Object) values).floats(0), session.run((Object) values).floats(0));
        }
    }

    /**
     * The threads a session of these options has while it runs, beyond one of a single thread: TFLite's own
     * (ruy's and Eigen's workers) and XNNPACK's (pthreadpool's) each run work on the caller and threads - 1 workers,
     * which they join when the session closes.
     */
    private static long extraThreadsWhileRunning(SessionOptions options) throws IOException, InterruptedException {
        try (TfLiteModel model = TfLiteModel.load(TestModels.named("face_detection_short_range.tflite"))) {
            float[] values;
            long before;
            try (Session single = model.newSession(SessionOptions.DEFAULT.withThreads(1))) {
                values = SessionTest.randomInput(single.inputs().get(0), 1);
                single.run((Object) values); // loads the libraries and whatever they start once
                before = ProcessThreads.unnamed();
            }
            long during;
            try (Session session = model.newSession(options)) {
                session.run((Object) values);
                during = ProcessThreads.unnamed();
            }
            long after = ProcessThreads.unnamedSettlingTo(before);
            assertEquals(before, after, "the session's workers end with it");
            return during - before;
        }
    }

    @Test
    void tflitesThreadsTakeEffect() throws IOException, InterruptedException {
        assertEquals(0, extraThreadsWhileRunning(SessionOptions.DEFAULT.withThreads(1)));
        long extra = extraThreadsWhileRunning(SessionOptions.DEFAULT.withThreads(4));
        assertTrue(extra >= 3, "TFLite threads 4: " + extra + " threads more than with 1");
    }

    @Test
    void xnnpacksThreadsTakeEffect() throws IOException, InterruptedException {
        long one = extraThreadsWhileRunning(SessionOptions.DEFAULT.withThreads(1).withXnnpackThreads(1));
        long four = extraThreadsWhileRunning(SessionOptions.DEFAULT.withThreads(1).withXnnpackThreads(4));
        assertTrue(four - one >= 3, "XNNPACK threads 4: " + four + " threads more than TFLite's one, with 1: " + one);
    }
}
