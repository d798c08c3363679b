package dev.tflitearena.session;

import dev.tflitearena.graph.TensorType;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Checks a caller's value against the input it is for, as {@link Session#run(Object...)} describes values,
 * and copies it into the input's memory.
 */
final class InputValues {
    private InputValues() {
    }

    static void write(Object value, TensorInfo input, List<TensorInfo> inputs, ByteBuffer target) {
        if (value instanceof ByteBuffer buffer) {
            if (!buffer.isDirect() || buffer.remaining() != input.bytes()) {
                throw mismatch(input, inputs, (buffer.isDirect() ? "a direct" : "a heap") + " ByteBuffer of "
                        + buffer.remaining() + " bytes");
            }
            requireNativeOrder(buffer, input);
            target.put(buffer.duplicate());
            return;
        }
        long length = lengthIfOfType(value, input.type());
        if (length != input.elements()) {
            throw mismatch(input, inputs, describe(value));
        }
        if (value instanceof float[] v) {
            target.asFloatBuffer().put(v);
        } else if (value instanceof byte[] v) {
            target.put(v);
        } else if (value instanceof int[] v) {
            target.asIntBuffer().put(v);
        } else {
            target.asLongBuffer().put((long[]) value);
        }
    }

    /**
     * Refuses a buffer in the other byte order where the element type has more than one byte: TFLite reads its
     * bytes in native order, so a float written big-endian would be computed on as another number.
     */
    private static void requireNativeOrder(ByteBuffer buffer, TensorInfo input) {
        if (buffer.order() != ByteOrder.nativeOrder() && input.type() != null && input.type().elementBytes() > 1) {
            throw new IllegalArgumentException("input " + input + " got a ByteBuffer in " + buffer.order()
                    + " byte order; TFLite's " + input.type() + " values are " + ByteOrder.nativeOrder()
                    + ": use buffer.order(ByteOrder.nativeOrder()) before filling it");
        }
    }

    /** The array's length when it carries {@code type}'s values, else -1. */
    private static long lengthIfOfType(Object value, TensorType type) {
        if (type == null) {
            return -1;
        }
        return switch (type) {
            case FLOAT32 -> value instanceof float[] v ? v.length : -1;
            case INT8, UINT8 -> value instanceof byte[] v ? v.length : -1;
            case INT32 -> value instanceof int[] v ? v.length : -1;
            case INT64 -> value instanceof long[] v ? v.length : -1;
            default -> -1;
        };
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value.getClass().isArray()) {
            return value.getClass().getComponentType().getSimpleName() + "[" + Array.getLength(value) + "]";
        }
        return value.getClass().getSimpleName();
    }

    static IllegalArgumentException mismatch(TensorInfo input, List<TensorInfo> inputs, String got) {
        return new IllegalArgumentException("input " + input + " got " + got + "; " + expectations(inputs));
    }

    static String expectations(List<TensorInfo> inputs) {
        return "the model takes " + inputs.stream().map(TensorInfo::toString).collect(Collectors.joining(", "))
                + " (a Java array of the type's values, or a direct ByteBuffer of the bytes)";
    }

    /** The index of the input named {@code name}; refused, with what the model takes, if there is none. */
    static int indexOf(String name, List<TensorInfo> inputs) {
        return inputs.stream().filter(i -> i.name().equals(name)).mapToInt(TensorInfo::index).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no input named '" + name + "'; "
                        + expectations(inputs)));
    }

    /** Refuses an index that names no input, with what the model takes. */
    static void checkIndex(int index, List<TensorInfo> inputs) {
        if (index < 0 || index >= inputs.size()) {
            throw new IllegalArgumentException("no input " + index + "; " + expectations(inputs));
        }
    }
}
