package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.memory.NativeHeap;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sharing sessions with XNNPACK share one weights cache per configuration: a session added after the first
 * finds the model's weights packed, so it grows the native heap (mallinfo2: in use and mapped, less the JVM's
 * own mallocs, which Native Memory Tracking in this module's test JVM gives) by less than a session added after
 * an unshared one, and every one computes an unshared session's outputs, bit for bit. (The cache maps its
 * memory outside malloc: the first session's packed weights do not show in that heap, which is why later
 * sessions are compared, not first and later.) The margin is half the model's bytes (seen here: 5.1 MB less for
 * a 2.8 MB model); each figure is the median of three, as the JVM's compilers malloc and free meanwhile.
 */
class SharedWeightsCacheTest {
    private static final Path MODEL = TestModels.named("pose_landmark_lite.tflite");
    private static final SessionOptions SHARING = SessionOptions.DEFAULT.withXnnpack(true).withSharing(true);
    private static final SessionOptions UNSHARED = SHARING.withSharing(false);
    private static final int ROUNDS = 3;

    private static float[] firstOutput(Session session) {
        float[] values = new float[(int) session.inputs().get(0).elements()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) Math.sin(i * 0.01);
        }
        return session.run((Object) values).floats(session.outputs().get(0).index());
    }

    /** The native heap a second session of {@code options} adds to a first; both sessions' outputs in {@code outputs}. */
    private static long laterSessionBytes(SessionOptions options, List<float[]> outputs) {
        try (TfLiteModel model = TfLiteModel.load(MODEL); Session first = model.newSession(options)) {
            outputs.add(firstOutput(first));
            long before = NativeHeap.usage().outsideJvm();
            try (Session later = model.newSession(options)) {
                long added = NativeHeap.usage().outsideJvm() - before;
                outputs.add(firstOutput(later));
                return added;
            }
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    @Test
    void aLaterSharingSessionFindsTheWeightsPacked() throws IOException {
        laterSessionBytes(SHARING, new ArrayList<>()); // warm-up: what XNNPACK allocates once per process
        List<float[]> unsharedOutputs = new ArrayList<>();
        List<float[]> sharingOutputs = new ArrayList<>();
        long[] unshared = new long[ROUNDS];
        long[] sharing = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            unshared[round] = laterSessionBytes(UNSHARED, unsharedOutputs);
            sharing[round] = laterSessionBytes(SHARING, sharingOutputs);
        }
        long modelBytes = Files.size(MODEL);
        String figures = "a later sharing session adds " + Arrays.toString(sharing) + " bytes, a later unshared one "
                + Arrays.toString(unshared) + "; the model has " + modelBytes;
        System.err.println("SharedWeightsCacheTest: " + figures);
        assertTrue(median(unshared) - median(sharing) > modelBytes / 2, figures);
        for (int i = 0; i < sharingOutputs.size(); i++) {
            assertArrayEquals(unsharedOutputs.get(0), sharingOutputs.get(i), "sharing session " + i);
        }
    }
}
