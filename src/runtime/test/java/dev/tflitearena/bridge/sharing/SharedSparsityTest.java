package dev.tflitearena.bridge.sharing;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.HeapCensus;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.ConstantProof;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.sharing.SharedConstants;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sparse model's index structures, which TFLite copies into every interpreter, shared instead: one copy,
 * outputs unchanged, alive while any interpreter reads it, and never freed twice.
 */
class SharedSparsityTest {
    private static final Path MODEL = TestModels.named("face_detection_full_range_sparse.tflite");
    private static final InterpreterSettings EIGHT_THREADS = new InterpreterSettings(false, false, 8, null);

    private static NativeInterpreter sharing(NativeModel model, SharedConstants shared) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, EIGHT_THREADS);
        interpreter.allocateTensors(null, shared);
        SeededInputs.feed(7, interpreter);
        interpreter.invoke();
        interpreter.shareConstants();
        return interpreter;
    }

    private static byte[][] run(NativeInterpreter interpreter, long seed) {
        SeededInputs.feed(seed, interpreter);
        interpreter.invoke();
        return SharedConstantsTest.outputs(interpreter);
    }

    @Test
    void interpretersSharingTheIndicesGiveTheUnsharedOutputsAndOutliveEachOther() {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter reference = NativeInterpreter.build(model, EIGHT_THREADS)) {
            reference.allocateTensors();
            SharedConstants shared = ConstantProof.prove(model, EIGHT_THREADS);
            assertFalse(shared.sparsity().isEmpty(), "the model's sparse constants");
            long ownBefore = HeapCensus.of(reference).get("sparsity");
            assertTrue(ownBefore > 500_000, ownBefore + " bytes of sparse indices per interpreter");
            NativeInterpreter first = sharing(model, shared);
            NativeInterpreter second = sharing(model, shared);
            shared.close();
            assertEquals(0, HeapCensus.of(first).get("sparsity"), "what it shares is not its own");
            assertEquals(shared.sparsityBytes(), first.sharedSparsityBytes());
            for (int k = 0; k < 3; k++) {
                byte[][] expected = run(reference, 20 + k);
                assertTrue(Arrays.deepEquals(expected, run(first, 20 + k)), "invoke " + k);
                assertTrue(Arrays.deepEquals(expected, run(second, 20 + k)), "invoke " + k);
            }
            first.close();
            // The copies are the region's: the second interpreter still reads them, and closes without a double free.
            assertTrue(Arrays.deepEquals(run(reference, 30), run(second, 30)));
            second.close();
        }
    }
}
