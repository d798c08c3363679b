package dev.tflitearena.session;

import dev.tflitearena.bridge.IoTensor;
import dev.tflitearena.graph.TensorType;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Checks a caller's value against the input it is for, as {@link Session#run(Object...)} describes values,
 * and copies it into the input's memory (a string input's memory is sized to the strings first).
 */
final class InputValues {
    private InputValues() {
    }

    /** {@code taker} is what takes the inputs, in messages: "the model", or a signature. */
    static void write(Object value, TensorInfo input, List<TensorInfo> inputs, String taker, IoTensor target) {
        if (value instanceof ByteBuffer buffer) {
            if (!buffer.isDirect() || buffer.remaining() != input.bytes() || input.type() == TensorType.STRING) {
                throw mismatch(input, inputs, taker, (buffer.isDirect() ? "a direct" : "a heap") + " ByteBuffer of "
                        + buffer.remaining() + " bytes");
            }
            requireNativeOrder(buffer, input, "input");
            target.data().put(buffer.duplicate());
            return;
        }
        Class<?> form = ElementValues.javaForm(input.type());
        if (form == null || !form.isInstance(value) || Array.getLength(value) != ElementValues.count(input)) {
            throw mismatch(input, inputs, taker, describe(value));
        }
        if (input.type() == TensorType.STRING) {
            String[] strings = (String[]) value;
            for (int i = 0; i < strings.length; i++) {
                if (strings[i] == null) {
                    throw mismatch(input, inputs, taker, "a null string at " + i);
                }
            }
            ByteBuffer bytes = ElementValues.encodeStrings(strings);
            target.resizeData(bytes.remaining()).put(bytes);
        } else {
            ElementValues.write(value, input.type(), target.data());
        }
    }

    /**
     * Refuses a buffer in the other byte order where the element type has more than one byte: TFLite reads its
     * bytes in native order, so a float written big-endian would be computed on as another number.
     */
    static void requireNativeOrder(ByteBuffer buffer, TensorInfo tensor, String what) {
        if (buffer.order() != ByteOrder.nativeOrder() && tensor.type() != null && tensor.type().elementBytes() > 1) {
            throw new IllegalArgumentException(what + " " + tensor + " got a ByteBuffer in " + buffer.order()
                    + " byte order; TFLite's " + tensor.type() + " values are " + ByteOrder.nativeOrder()
                    + ": use buffer.order(ByteOrder.nativeOrder()) before filling it");
        }
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

    private static IllegalArgumentException mismatch(TensorInfo input, List<TensorInfo> inputs, String taker,
                                                     String got) {
        return new IllegalArgumentException("input " + input + " got " + got + "; " + expectations(inputs, taker));
    }

    static String expectations(List<TensorInfo> inputs, String taker) {
        return taker + " takes " + inputs.stream().map(TensorInfo::toString).collect(Collectors.joining(", "))
                + " (a Java array of the type's values, or a direct ByteBuffer of the bytes; see Session.run)";
    }
}
