package dev.tflitearena.session;

import dev.tflitearena.graph.TensorType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The Java form of each element type and the conversion between it and TFLite's bytes (native byte order):
 * float32, float16 and bfloat16 as float[]; float64 as double[]; int8 and uint8 as byte[]; int16 and uint16 as
 * short[]; int32 and uint32 as int[]; int64 and uint64 as long[] (unsigned values in the signed type of their
 * width, as {@code Byte.toUnsignedInt} reads them); bool as boolean[]; string as String[] (UTF-8); complex64 and
 * complex128 as float[] and double[] of interleaved real and imaginary parts. int4, int2, resource and variant
 * have none: their bytes only ({@link Outputs#copyTo}, {@link Session#outputView}).
 */
final class ElementValues {
    private ElementValues() {
    }

    /** The Java array class of the type's values, or null when it has none. */
    static Class<?> javaForm(TensorType type) {
        if (type == null) {
            return null;
        }
        return switch (type) {
            case FLOAT32, FLOAT16, BFLOAT16, COMPLEX64 -> float[].class;
            case FLOAT64, COMPLEX128 -> double[].class;
            case INT8, UINT8 -> byte[].class;
            case INT16, UINT16 -> short[].class;
            case INT32, UINT32 -> int[].class;
            case INT64, UINT64 -> long[].class;
            case BOOL -> boolean[].class;
            case STRING -> String[].class;
            default -> null;
        };
    }

    /** How many array values a tensor of this shape takes: two per element for the complex types. */
    static long count(TensorInfo info) {
        TensorType type = info.type();
        return info.elements() * (type == TensorType.COMPLEX64 || type == TensorType.COMPLEX128 ? 2 : 1);
    }

    /** The bytes of a string tensor holding {@code values}, laid out as TFLite's string tensors are. */
    static ByteBuffer encodeStrings(String[] values) {
        byte[][] utf8 = new byte[values.length][];
        long header = Integer.BYTES * (values.length + 2L);
        long total = header;
        for (int i = 0; i < values.length; i++) {
            utf8[i] = values[i].getBytes(StandardCharsets.UTF_8);
            total += utf8[i].length;
        }
        ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(total)).order(ByteOrder.nativeOrder());
        // The count, then the offset of each string and of the end, from the start of the tensor.
        bytes.putInt(values.length);
        int offset = (int) header;
        for (byte[] value : utf8) {
            bytes.putInt(offset);
            offset += value.length;
        }
        bytes.putInt(offset);
        for (byte[] value : utf8) {
            bytes.put(value);
        }
        return bytes.flip();
    }

    /** Writes the array, of {@link #javaForm} and {@link #count} values (checked by the caller), into {@code target}. */
    static void write(Object value, TensorType type, ByteBuffer target) {
        switch (type) {
            case FLOAT32, COMPLEX64 -> target.asFloatBuffer().put((float[]) value);
            case FLOAT16, BFLOAT16 -> {
                float[] v = (float[]) value;
                for (int i = 0; i < v.length; i++) {
                    target.putShort(i * 2, type == TensorType.FLOAT16 ? toHalf(v[i]) : toBfloat16(v[i]));
                }
            }
            case FLOAT64, COMPLEX128 -> target.asDoubleBuffer().put((double[]) value);
            case INT8, UINT8 -> target.duplicate().put((byte[]) value);
            case INT16, UINT16 -> target.asShortBuffer().put((short[]) value);
            case INT32, UINT32 -> target.asIntBuffer().put((int[]) value);
            case INT64, UINT64 -> target.asLongBuffer().put((long[]) value);
            case BOOL -> {
                boolean[] v = (boolean[]) value;
                for (int i = 0; i < v.length; i++) {
                    target.put(i, (byte) (v[i] ? 1 : 0));
                }
            }
            default -> throw new IllegalArgumentException(type + " has no Java form");
        }
    }

    /** The tensor's values in their Java form, read from its bytes. */
    static Object read(ByteBuffer data, TensorInfo info) {
        TensorType type = info.type();
        if (type == TensorType.STRING) {
            return decodeStrings(data);
        }
        int count = Math.toIntExact(count(info));
        ByteBuffer bytes = data.duplicate().order(ByteOrder.nativeOrder());
        switch (type) {
            case FLOAT32, COMPLEX64 -> {
                float[] v = new float[count];
                bytes.asFloatBuffer().get(v);
                return v;
            }
            case FLOAT16, BFLOAT16 -> {
                float[] v = new float[count];
                for (int i = 0; i < count; i++) {
                    short bits = bytes.getShort(i * 2);
                    v[i] = type == TensorType.FLOAT16 ? fromHalf(bits) : Float.intBitsToFloat(bits << 16);
                }
                return v;
            }
            case FLOAT64, COMPLEX128 -> {
                double[] v = new double[count];
                bytes.asDoubleBuffer().get(v);
                return v;
            }
            case INT8, UINT8 -> {
                byte[] v = new byte[count];
                bytes.get(v);
                return v;
            }
            case INT16, UINT16 -> {
                short[] v = new short[count];
                bytes.asShortBuffer().get(v);
                return v;
            }
            case INT32, UINT32 -> {
                int[] v = new int[count];
                bytes.asIntBuffer().get(v);
                return v;
            }
            case INT64, UINT64 -> {
                long[] v = new long[count];
                bytes.asLongBuffer().get(v);
                return v;
            }
            case BOOL -> {
                boolean[] v = new boolean[count];
                for (int i = 0; i < count; i++) {
                    v[i] = bytes.get(i) != 0;
                }
                return v;
            }
            default -> throw new IllegalArgumentException(type + " has no Java form");
        }
    }

    private static String[] decodeStrings(ByteBuffer data) {
        ByteBuffer bytes = data.duplicate().order(ByteOrder.nativeOrder());
        if (bytes.remaining() < Integer.BYTES) {
            return new String[0];
        }
        String[] values = new String[bytes.getInt(0)];
        for (int i = 0; i < values.length; i++) {
            int start = bytes.getInt(Integer.BYTES * (i + 1));
            int end = bytes.getInt(Integer.BYTES * (i + 2));
            byte[] utf8 = new byte[end - start];
            bytes.get(start, utf8);
            values[i] = new String(utf8, StandardCharsets.UTF_8);
        }
        return values;
    }

    /** IEEE 754 half precision, rounded to nearest even; overflow goes to infinity, NaN stays NaN. */
    static short toHalf(float value) {
        int bits = Float.floatToRawIntBits(value);
        int sign = (bits >>> 16) & 0x8000;
        int exponent = (bits >>> 23) & 0xFF;
        int mantissa = bits & 0x7FFFFF;
        if (exponent == 0xFF) {
            return (short) (sign | 0x7C00 | (mantissa == 0 ? 0 : 0x200));
        }
        int halfExponent = exponent - 127 + 15;
        if (halfExponent >= 0x1F) {
            return (short) (sign | 0x7C00);
        }
        if (halfExponent <= 0) {
            if (halfExponent < -10) {
                return (short) sign;
            }
            // A subnormal half: the implicit leading one joins the mantissa, shifted into place.
            int full = mantissa | 0x800000;
            int shift = 14 - halfExponent;
            int half = full >>> shift;
            int rest = full & ((1 << shift) - 1);
            int halfway = 1 << (shift - 1);
            if (rest > halfway || (rest == halfway && (half & 1) != 0)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = (halfExponent << 10) | (mantissa >>> 13);
        int rest = mantissa & 0x1FFF;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) {
            half++;
        }
        return (short) (sign | half);
    }

    static float fromHalf(short half) {
        int bits = half & 0xFFFF;
        int sign = (bits & 0x8000) << 16;
        int exponent = (bits >>> 10) & 0x1F;
        int mantissa = bits & 0x3FF;
        if (exponent == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F800000 | (mantissa << 13));
        }
        if (exponent == 0) {
            float magnitude = mantissa * 0x1p-24f;
            return sign == 0 ? magnitude : -magnitude;
        }
        return Float.intBitsToFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
    }

    /** The upper half of the float's bits, rounded to nearest even; NaN stays NaN. */
    static short toBfloat16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) {
            return (short) ((bits >>> 16) | 0x40);
        }
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }
}
