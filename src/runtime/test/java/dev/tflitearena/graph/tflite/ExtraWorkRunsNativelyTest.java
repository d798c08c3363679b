package dev.tflitearena.graph.tflite;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.graph.TensorType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A model with extra ADDs loads and runs natively: the old outputs byte for byte, the new one the chain's sum. */
class ExtraWorkRunsNativelyTest {
    private static final int OPERATIONS = 5;
    private static final long SEED = 1;

    /** The runnable real models and the samples whose subgraph 0 has a float32 input. */
    static Stream<Arguments> models() {
        return TestModels.runnableAndSamples().filter(a -> {
            TfliteSubgraph s = TfliteFile.read((byte[]) a.get()[1]).subgraph(0);
            return Arrays.stream(s.inputs()).anyMatch(i -> s.tensor(i).type() == TensorType.FLOAT32);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void theOldOutputsAreUnchangedAndTheNewOneIsTheChainsSum(String name, byte[] bytes) {
        TfliteSubgraph primary = TfliteFile.read(bytes).subgraph(0);
        int x = 0;
        while (primary.tensor(primary.inputs()[x]).type() != TensorType.FLOAT32) {
            x++;
        }
        try (NativeModel original = NativeModel.fromBytes(bytes, name);
             NativeModel slowed = NativeModel.fromBytes(ExtraWork.append(bytes, OPERATIONS), name + " slowed");
             NativeInterpreter a = NativeInterpreter.build(original, InterpreterSettings.DEFAULT);
             NativeInterpreter b = NativeInterpreter.build(slowed, InterpreterSettings.DEFAULT)) {
            a.allocateTensors();
            b.allocateTensors();
            SeededInputs.feed(SEED, a, b);
            a.invoke();
            b.invoke();
            assertEquals(a.outputCount() + 1, b.outputCount(), name);
            for (int i = 0; i < a.outputCount(); i++) {
                assertArrayEquals(a.readOutput(i), b.readOutput(i), name + ": output " + i);
            }
            assertArrayEquals(chainSum(SeededInputs.of(a.input(x), SEED)), b.readOutput(a.outputCount()), name);
        }
    }

    /** The chain's additions in float32, in its order: x + x, then + x for each further ADD. */
    private static byte[] chainSum(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input).order(ByteOrder.nativeOrder());
        ByteBuffer out = ByteBuffer.allocate(input.length).order(ByteOrder.nativeOrder());
        while (in.hasRemaining()) {
            float x = in.getFloat();
            float t = x;
            for (int k = 0; k < OPERATIONS; k++) {
                t += x;
            }
            out.putFloat(t);
        }
        return out.array();
    }
}
