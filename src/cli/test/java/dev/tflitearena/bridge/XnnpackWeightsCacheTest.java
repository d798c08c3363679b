package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.memory.NativeHeap;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A weights cache shared by the XNNPACK delegates of several interpreters: the interpreters after the first
 * pack no weights of their own, so each grows glibc's heap (mallinfo2: in use and mapped, less the JVM's own
 * mallocs, which Native Memory Tracking in this module's test JVM gives) by at least half the model's bytes less
 * than an interpreter whose delegate packs its own (seen here: 2.8 MB less for a 2.8 MB model), and they compute
 * the same outputs. The packed weights are large blocks, which malloc maps rather than takes from its heap: the
 * in-use count alone misses them.
 */
class XnnpackWeightsCacheTest {
    private static final int INTERPRETERS = 4;

    /** The native heap each interpreter after the first adds, allocated and invoked once. */
    private static long heapPerLaterInterpreter(NativeModel model, XnnpackOptions options, List<byte[]> outputs) {
        InterpreterSettings settings = InterpreterSettings.DEFAULT.withXnnpackOptions(options);
        List<NativeInterpreter> interpreters = new ArrayList<>();
        try {
            long first = 0;
            for (int i = 0; i < INTERPRETERS; i++) {
                NativeInterpreter interpreter = NativeInterpreter.build(model, settings);
                interpreters.add(interpreter);
                interpreter.allocateTensors();
                interpreter.writeInput(0, new byte[(int) interpreter.input(0).bytes()]);
                interpreter.invoke();
                outputs.add(interpreter.readOutput(0));
                if (i == 0) {
                    first = NativeHeap.usage().outsideJvm();
                }
            }
            return (NativeHeap.usage().outsideJvm() - first) / (INTERPRETERS - 1);
        } finally {
            interpreters.forEach(NativeInterpreter::close);
        }
    }

    @Test
    void laterInterpretersShareThePackedWeights() throws java.io.IOException {
        try (NativeModel model = NativeModel.load(TestModels.named("pose_landmark_lite.tflite"))) {
            heapPerLaterInterpreter(model, XnnpackOptions.threads(1), new ArrayList<>()); // warm-up
            List<byte[]> separateOutputs = new ArrayList<>();
            long separate = heapPerLaterInterpreter(model, XnnpackOptions.threads(1), separateOutputs);
            List<byte[]> sharedOutputs = new ArrayList<>();
            long shared;
            try (XnnpackWeightsCache cache = XnnpackWeightsCache.create()) {
                shared = heapPerLaterInterpreter(model, XnnpackOptions.threads(1).withWeightsCache(cache), sharedOutputs);
            }
            long modelBytes = java.nio.file.Files.size(model.path());
            assertTrue(separate - shared > modelBytes / 2, "each later interpreter adds " + shared
                    + " bytes with the shared cache, " + separate + " without; the model has " + modelBytes);
            for (int i = 0; i < INTERPRETERS; i++) {
                assertArrayEquals(separateOutputs.get(i), sharedOutputs.get(i), "interpreter " + i);
            }
        }
    }

    @Test
    void aClosedCacheIsFreedOnlyAfterItsLastDelegateAndTakesNoNewOne() {
        try (NativeModel model = NativeModel.load(TestModels.named("face_detection_short_range.tflite"))) {
            XnnpackWeightsCache cache = XnnpackWeightsCache.create();
            InterpreterSettings settings = InterpreterSettings.DEFAULT.withXnnpackOptions(
                    XnnpackOptions.threads(1).withWeightsCache(cache));
            try (NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
                cache.close();
                interpreter.allocateTensors();
                interpreter.invoke(); // the cache is closed, yet still alive for this delegate
            }
            var refusal = assertThrows(IllegalStateException.class, () -> NativeInterpreter.build(model, settings));
            assertTrue(refusal.getMessage().contains("weights cache is closed"), refusal.getMessage());
        }
    }
}
