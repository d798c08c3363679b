package dev.tflitearena.bench;

import dev.tflitearena.bridge.TensorAccess;
import dev.tflitearena.graph.TensorType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Whether DJL runs a model here, and computes what our raw interpreter computes (XNNPACK off, as DJL runs)
 * from the same seeded inputs: a throughput of wrong results would be worthless, so DJL is timed only after
 * this passes, and when it fails the summary shows DJL's own error instead of a figure.
 *
 * <p>DJL bundles an older TFLite (2.6.2) whose float kernels may round differently from ours, so float
 * outputs agree when every value is within {@value #TOLERANCE} of ours, relative to the output's largest
 * magnitude (at least 1); other outputs must be equal byte for byte.
 *
 * @param engine        DJL's and its TFLite's versions, or null when DJL did not load
 * @param maxDifference the largest absolute difference of a float output value, 0 when all are equal
 * @param error         why DJL was not timed on this model, or null when it agrees
 */
public record DjlCheck(String model, String engine, double maxDifference, String error) {
    static final double TOLERANCE = 1e-4;

    public boolean passed() {
        return error == null;
    }

    /** The check of each model, found where {@link PreparedModel} finds it. */
    public static List<DjlCheck> of(List<String> models) {
        return models.stream().map(DjlCheck::of).toList();
    }

    static DjlCheck of(String model) {
        PreparedModel prepared = new PreparedModel();
        prepared.model = model;
        prepared.prepare();
        String engine = null;
        try (DjlPredictor djl = DjlPredictor.load(prepared.path(),
                ThroughputBenchmark.inputTensors(prepared.interpreter))) {
            engine = DjlPredictor.version();
            byte[][] ours = ThroughputBenchmark.infer(prepared.interpreter, prepared.inputs);
            byte[][] theirs = djl.run(ThroughputBenchmark.direct(prepared.inputs));
            List<TensorType> types = IntStream.range(0, ours.length)
                    .mapToObj(i -> TensorType.byName(TensorAccess.outputTensor(prepared.interpreter, i).type())).toList();
            return compare(model, engine, types, ours, theirs);
        } catch (Exception | LinkageError e) {
            return new DjlCheck(model, engine, Double.NaN, describe(e));
        } finally {
            prepared.close();
        }
    }

    /** {@code types} are our outputs' types. */
    static DjlCheck compare(String model, String engine, List<TensorType> types, byte[][] ours, byte[][] theirs) {
        if (ours.length != theirs.length) {
            return new DjlCheck(model, engine, Double.NaN, "DJL gave " + theirs.length + " outputs, ours "
                    + ours.length);
        }
        double maxDifference = 0;
        for (int i = 0; i < ours.length; i++) {
            if (ours[i].length != theirs[i].length) {
                return new DjlCheck(model, engine, Double.NaN, "output " + i + ": DJL gave " + theirs[i].length
                        + " bytes, ours " + ours[i].length);
            }
            if (types.get(i) != TensorType.FLOAT32) {
                if (!Arrays.equals(ours[i], theirs[i])) {
                    return new DjlCheck(model, engine, Double.NaN, "output " + i + " differs from ours");
                }
                continue;
            }
            FloatBuffer a = ByteBuffer.wrap(ours[i]).order(ByteOrder.nativeOrder()).asFloatBuffer();
            FloatBuffer b = ByteBuffer.wrap(theirs[i]).order(ByteOrder.nativeOrder()).asFloatBuffer();
            double scale = 1;
            double difference = 0;
            for (int k = 0; k < a.limit(); k++) {
                scale = Math.max(scale, Math.abs(a.get(k)));
                difference = Math.max(difference, Math.abs((double) a.get(k) - b.get(k)));
            }
            maxDifference = Math.max(maxDifference, difference);
            // NaN fails too: a difference is within tolerance only when it is a number.
            if (!(difference <= TOLERANCE * scale)) {
                return new DjlCheck(model, engine, difference, String.format(Locale.ROOT,
                        "output %d differs from ours by up to %.3g (values up to %.3g)", i, difference, scale));
            }
        }
        return new DjlCheck(model, engine, maxDifference, null);
    }

    /** The exception and its causes, each as class and message: DJL's errors say what they lack in a cause. */
    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            text.append(text.length() == 0 ? "" : "; caused by ").append(t.getClass().getName())
                    .append(t.getMessage() == null ? "" : ": " + t.getMessage());
        }
        return text.toString();
    }
}
