package dev.tflitearena.session;

import dev.tflitearena.bridge.IoTensor;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.Quantization;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A graph input or output of a session, or of one of its signatures: its position, name, element type,
 * current shape, bytes (a string tensor's: what its strings take, 0 before any are written) and quantization
 * (null when it has none; per tensor, one scale and zero point, or per channel, one of each per slice along
 * {@link Quantization#axis()}, the quantized dimension). Equal when every field is, the shape by value.
 *
 * @param index        its position among the inputs or the outputs
 * @param name         the tensor's name, or for a signature's tensor the signature's name for it
 * @param type         its element type; null for one TFLite does not name
 * @param shape        its current shape (a copy)
 * @param bytes        the bytes of its values
 * @param quantization its affine quantization, or null
 */
public record TensorInfo(int index, String name, TensorType type, int[] shape, long bytes, Quantization quantization) {

    /** Keeps a copy of the shape, so that the caller's array may change. */
    public TensorInfo {
        shape = shape.clone();
    }

    static TensorInfo of(int index, String name, IoTensor tensor) {
        Tensor described = tensor.describe();
        TensorType type = described.type() == null ? null : TensorType.byName(described.type());
        return new TensorInfo(index, name, type, described.shape(), described.bytes(), tensor.quantization());
    }

    static TensorInfo of(int index, IoTensor tensor) {
        return of(index, tensor.describe().name(), tensor);
    }

    /** A copy of the shape. */
    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** The number of values: the product of the shape. */
    public long elements() {
        return Arrays.stream(shape).asLongStream().reduce(1, Math::multiplyExact);
    }

    /**
     * A direct buffer for {@link Session#bindInput} or {@link Session#bindOutput}: exactly {@link #bytes()} long,
     * in native byte order, at an address aligned as TFLite requires of memory it is given (64 bytes).
     */
    public ByteBuffer allocateDirect() {
        int size = Math.toIntExact(bytes);
        return ByteBuffer.allocateDirect(size + IoTensor.alignment() - 1).alignedSlice(IoTensor.alignment())
                .limit(size).slice().order(ByteOrder.nativeOrder());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorInfo t && index == t.index && bytes == t.bytes && name.equals(t.name)
                && type == t.type && Arrays.equals(shape, t.shape) && Objects.equals(quantization, t.quantization);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, name, type, Arrays.hashCode(shape), bytes, quantization);
    }

    @Override
    public String toString() {
        return index + " '" + name + "' " + (type == null ? "?" : type.jsonName().toLowerCase()) + " "
                + Arrays.toString(shape) + " (" + elements() + " values, " + bytes + " bytes"
                + (quantization == null ? "" : ", " + quantization.summary()) + ")";
    }
}
