package dev.tflitearena.session;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The outputs one run read: every output, or those the run selected, each copied out of the interpreter so
 * that it can serve the next call. An output bound to a caller's buffer ({@link Session#bindOutput}) is not
 * copied but read in that buffer, so it holds what the session's latest run wrote there. Each is found by its index among the session's (or signature's) outputs or by
 * its name, and read as the Java array of its type ({@link Session#run(Object...)} lists them) or copied into a
 * ByteBuffer of the caller's. Safe to read from several threads.
 */
public final class Outputs {
    private final List<TensorInfo> infos;
    private final ByteBuffer[] data;

    Outputs(List<TensorInfo> infos, ByteBuffer[] data) {
        this.infos = infos;
        this.data = data;
    }

    /** The outputs this run read, in the order of the session's (or signature's) outputs. */
    public List<TensorInfo> infos() {
        return infos;
    }

    /** The index of the output of that name; refused, naming the outputs read, when the run read none of it. */
    public int index(String name) {
        for (TensorInfo info : infos) {
            if (info.name().equals(name)) {
                return info.index();
            }
        }
        throw new IllegalArgumentException("no output named '" + name + "' in this run; it read " + described());
    }

    /** The output of that index; refused, naming the outputs read, when the run read none of it. */
    public TensorInfo info(int index) {
        return infos.get(position(index));
    }

    /**
     * Copies the output's bytes, in native byte order, into {@code target} (a direct buffer, say) at its
     * position, which moves past them. The target's own byte order is left alone: read multi-byte values
     * through {@code target.order(ByteOrder.nativeOrder())}.
     */
    public void copyTo(int index, ByteBuffer target) {
        TensorInfo info = info(index);
        if (target.remaining() < info.bytes()) {
            throw new IllegalArgumentException("output " + info + " does not fit the " + target.remaining()
                    + " bytes left in the buffer");
        }
        target.put(data(index));
    }

    /** {@link #copyTo(int, ByteBuffer)} by name. */
    public void copyTo(String name, ByteBuffer target) {
        copyTo(index(name), target);
    }

    /** The values of a float32, float16 or bfloat16 output; a complex64 one's real and imaginary parts in turn. */
    public float[] floats(int index) {
        return (float[]) values(index, float[].class);
    }

    /** {@link #floats(int)} by name. */
    public float[] floats(String name) {
        return floats(index(name));
    }

    /** The values of a float64 output; a complex128 one's real and imaginary parts in turn. */
    public double[] doubles(int index) {
        return (double[]) values(index, double[].class);
    }

    /** {@link #doubles(int)} by name. */
    public double[] doubles(String name) {
        return doubles(index(name));
    }

    /** The values of an int8 or uint8 output (read uint8 values with {@code Byte.toUnsignedInt}). */
    public byte[] bytes(int index) {
        return (byte[]) values(index, byte[].class);
    }

    /** {@link #bytes(int)} by name. */
    public byte[] bytes(String name) {
        return bytes(index(name));
    }

    /** The values of an int16 or uint16 output (read uint16 values with {@code Short.toUnsignedInt}). */
    public short[] shorts(int index) {
        return (short[]) values(index, short[].class);
    }

    /** {@link #shorts(int)} by name. */
    public short[] shorts(String name) {
        return shorts(index(name));
    }

    /** The values of an int32 or uint32 output (read uint32 values with {@code Integer.toUnsignedLong}). */
    public int[] ints(int index) {
        return (int[]) values(index, int[].class);
    }

    /** {@link #ints(int)} by name. */
    public int[] ints(String name) {
        return ints(index(name));
    }

    /** The values of an int64 or uint64 output (read uint64 values with {@code Long.toUnsignedString}). */
    public long[] longs(int index) {
        return (long[]) values(index, long[].class);
    }

    /** {@link #longs(int)} by name. */
    public long[] longs(String name) {
        return longs(index(name));
    }

    /** The values of a bool output. */
    public boolean[] booleans(int index) {
        return (boolean[]) values(index, boolean[].class);
    }

    /** {@link #booleans(int)} by name. */
    public boolean[] booleans(String name) {
        return booleans(index(name));
    }

    /** The values of a string output, decoded from UTF-8. */
    public String[] strings(int index) {
        return (String[]) values(index, String[].class);
    }

    /** {@link #strings(int)} by name. */
    public String[] strings(String name) {
        return strings(index(name));
    }

    private Object values(int index, Class<?> wanted) {
        TensorInfo info = info(index);
        Class<?> form = ElementValues.javaForm(info.type());
        if (form != wanted) {
            throw new IllegalArgumentException("output " + info + " is not read as " + wanted.getSimpleName()
                    + (form == null ? ": its type has no Java form; copy its bytes with copyTo"
                    : ": read it as " + form.getSimpleName()));
        }
        return ElementValues.read(data(index), info);
    }

    private int position(int index) {
        for (int i = 0; i < infos.size(); i++) {
            if (infos.get(i).index() == index) {
                return i;
            }
        }
        throw new IllegalArgumentException("no output " + index + " in this run; it read " + described());
    }

    private String described() {
        return infos.stream().map(TensorInfo::toString).collect(Collectors.joining(", ", "[", "]"));
    }

    /** A fresh view, so that readers on several threads do not share a position. */
    private ByteBuffer data(int index) {
        return data[position(index)].duplicate().order(ByteOrder.nativeOrder());
    }
}
