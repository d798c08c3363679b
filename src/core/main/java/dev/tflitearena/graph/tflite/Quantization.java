package dev.tflitearena.graph.tflite;

import java.util.Arrays;

/**
 * A tensor's affine quantization: one scale and zero point per tensor, or one per slice along {@code axis}
 * (the schema's quantized_dimension) for per-axis quantization. Arrays are shared, not copied: treat them
 * as read-only.
 */
public record Quantization(float[] scales, long[] zeroPoints, int axis) {

    public Quantization {
        if (scales.length == 0) {
            throw new IllegalArgumentException("quantization needs at least one scale");
        }
        if (zeroPoints.length != scales.length) {
            throw new IllegalArgumentException("quantization has " + scales.length + " scales but "
                    + zeroPoints.length + " zero points");
        }
        if (axis < 0) {
            throw new IllegalArgumentException("quantization axis must not be negative, got " + axis);
        }
    }

    public static Quantization of(float scale, long zeroPoint) {
        return new Quantization(new float[]{scale}, new long[]{zeroPoint}, 0);
    }

    public static Quantization perAxis(int axis, float[] scales, long[] zeroPoints) {
        return new Quantization(scales, zeroPoints, axis);
    }

    public boolean perAxis() {
        return scales.length > 1;
    }

    /** One line for people: "scale 0.5 zero_point 3", or "per-axis 32 scales along axis 0". */
    public String summary() {
        if (!perAxis()) {
            return "scale " + scales[0] + " zero_point " + zeroPoints[0];
        }
        return "per-axis " + scales.length + " scales along axis " + axis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantization q && axis == q.axis && Arrays.equals(scales, q.scales)
                && Arrays.equals(zeroPoints, q.zeroPoints);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(scales) + Arrays.hashCode(zeroPoints)) + axis;
    }

    @Override
    public String toString() {
        return summary();
    }
}
