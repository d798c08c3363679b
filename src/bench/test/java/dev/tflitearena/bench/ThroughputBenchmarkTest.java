package dev.tflitearena.bench;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.session.Outputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The throughput benchmark's variants compute the same outputs from the same inputs; no timing is checked. */
class ThroughputBenchmarkTest {
    private static final int CALLERS = 4;

    private static InvokeBenchmark.NativePlanned prepared(String model, boolean xnnpack) {
        InvokeBenchmark.NativePlanned prepared = new InvokeBenchmark.NativePlanned();
        prepared.model = model;
        prepared.xnnpack = xnnpack;
        prepared.prepare();
        return prepared;
    }

    private static byte[][] bytes(Outputs outputs) {
        byte[][] bytes = new byte[outputs.infos().size()][];
        for (int i = 0; i < bytes.length; i++) {
            ByteBuffer copy = ByteBuffer.allocate((int) outputs.infos().get(i).bytes());
            outputs.copyTo(i, copy);
            bytes[i] = copy.array();
        }
        return bytes;
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "true"})
    void aPoolOfConcurrentCallersGivesTheRawInterpretersOutputs(boolean xnnpack) throws Exception {
        InvokeBenchmark.NativePlanned prepared = prepared("face_detection_short_range.tflite", xnnpack);
        ThroughputBenchmark.Pooled pooled = new ThroughputBenchmark.Pooled();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
            byte[][] raw = ThroughputBenchmark.infer(prepared.interpreter, prepared.inputs);
            assertArrayEquals(raw, ThroughputBenchmark.infer(prepared.interpreter, prepared.inputs),
                    "the raw interpreter repeats itself");
            pooled.open(prepared, CALLERS);
            List<Future<byte[][]>> calls = new ArrayList<>();
            for (int i = 0; i < 3 * CALLERS; i++) {
                calls.add(callers.submit(() -> bytes(pooled.infer())));
            }
            for (Future<byte[][]> call : calls) {
                assertArrayEquals(raw, call.get());
            }
        } finally {
            callers.shutdownNow();
            if (pooled.pool != null) {
                pooled.close();
            }
            prepared.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"face_detection_short_range.tflite", "hand_landmark_full.tflite"})
    void djlComputesWhatTheRawInterpreterComputes(String model) throws Exception {
        DjlCheck check = DjlCheck.of(model);
        assertTrue(check.passed(), check.error());
        assertTrue(check.engine().startsWith("DJL 0.27.0, TFLite 2.6."), check.engine());

        InvokeBenchmark.NativePlanned prepared = prepared(model, false);
        ThroughputBenchmark.Djl djl = new ThroughputBenchmark.Djl();
        try {
            djl.load(prepared);
            assertArrayEquals(djl.infer(), djl.infer(), "DJL repeats itself");
        } finally {
            djl.close();
            prepared.close();
        }
    }

    @Test
    void djlAgreesWithinTheToleranceOnFloatsAndExactlyOnOtherOutputs() {
        List<TensorType> types = List.of(TensorType.FLOAT32, TensorType.UINT8);
        byte[][] ours = {floats(1f, 200f), {1, 2}};
        assertEquals(0.0, DjlCheck.compare("m", "e", types, ours, ours).maxDifference());
        DjlCheck close = DjlCheck.compare("m", "e", types, ours, new byte[][]{floats(1.001f, 200f), {1, 2}});
        assertTrue(close.passed(), "0.001 is within 1e-4 of the largest magnitude, 200: " + close);
        DjlCheck far = DjlCheck.compare("m", "e", types, ours, new byte[][]{floats(1.1f, 200f), {1, 2}});
        assertTrue(far.error().startsWith("output 0 differs from ours by up to 0.100"), far.error());
        DjlCheck bytes = DjlCheck.compare("m", "e", types, ours, new byte[][]{ours[0], {1, 3}});
        assertEquals("output 1 differs from ours", bytes.error());
        DjlCheck nan = DjlCheck.compare("m", "e", types, ours, new byte[][]{floats(Float.NaN, 200f), {1, 2}});
        assertTrue(!nan.passed(), "NaN is no agreement");
    }

    private static byte[] floats(float... values) {
        ByteBuffer data = ByteBuffer.allocate(4 * values.length).order(ByteOrder.nativeOrder());
        for (float v : values) {
            data.putFloat(v);
        }
        return data.array();
    }
}
