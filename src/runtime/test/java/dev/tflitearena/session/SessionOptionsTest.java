package dev.tflitearena.session;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;

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
}
