package dev.tflitearena.session;

import dev.tflitearena.graph.TensorType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The outputs of one run, copied out of the interpreter so that it can serve the next call: each by index or
 * name, as the Java array of its type or copied into a ByteBuffer of the caller's.
 */
public final class Outputs {
    private final List<TensorInfo> infos;
    private final ByteBuffer[] data;

    Outputs(List<TensorInfo> infos, ByteBuffer[] data) {
        this.infos = infos;
        this.data = data;
    }

    public List<TensorInfo> infos() {
        return infos;
    }

    public int index(String name) {
        for (TensorInfo info : infos) {
            if (info.name().equals(name)) {
                return info.index();
            }
        }
        throw new IllegalArgumentException("no output named '" + name + "'; the model gives "
                + infos.stream().map(TensorInfo::toString).collect(Collectors.joining(", ")));
    }

    /**
     * Copies the output's bytes, in native byte order, into {@code target} (a direct buffer, say) at its
     * position, which moves past them. The target's own byte order is left alone: read multi-byte values
     * through {@code target.order(ByteOrder.nativeOrder())}.
     */
    public void copyTo(int index, ByteBuffer target) {
        TensorInfo info = infos.get(index);
        if (target.remaining() < info.bytes()) {
            throw new IllegalArgumentException("output " + info + " does not fit the " + target.remaining()
                    + " bytes left in the buffer");
        }
        target.put(data(index));
    }

    public void copyTo(String name, ByteBuffer target) {
        copyTo(index(name), target);
    }

    public float[] floats(int index) {
        float[] values = new float[(int) typed(index, TensorType.FLOAT32).elements()];
        data(index).asFloatBuffer().get(values);
        return values;
    }

    public float[] floats(String name) {
        return floats(index(name));
    }

    /** The values of an int8 or uint8 output (read uint8 values with {@code Byte.toUnsignedInt}). */
    public byte[] bytes(int index) {
        TensorInfo info = infos.get(index);
        if (info.type() != TensorType.UINT8) {
            typed(index, TensorType.INT8);
        }
        byte[] values = new byte[(int) info.elements()];
        data(index).get(values);
        return values;
    }

    public byte[] bytes(String name) {
        return bytes(index(name));
    }

    public int[] ints(int index) {
        int[] values = new int[(int) typed(index, TensorType.INT32).elements()];
        data(index).asIntBuffer().get(values);
        return values;
    }

    public int[] ints(String name) {
        return ints(index(name));
    }

    public long[] longs(int index) {
        long[] values = new long[(int) typed(index, TensorType.INT64).elements()];
        data(index).asLongBuffer().get(values);
        return values;
    }

    public long[] longs(String name) {
        return longs(index(name));
    }

    private TensorInfo typed(int index, TensorType wanted) {
        TensorInfo info = infos.get(index);
        if (info.type() != wanted) {
            throw new IllegalArgumentException("output " + info + " is not " + wanted.jsonName().toLowerCase());
        }
        return info;
    }

    /** A fresh view, so that readers on several threads do not share a position. */
    private ByteBuffer data(int index) {
        return data[index].duplicate().order(ByteOrder.nativeOrder());
    }
}
