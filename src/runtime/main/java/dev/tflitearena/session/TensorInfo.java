package dev.tflitearena.session;

import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TensorType;

import java.util.Arrays;

/** A graph input or output of a session: its position, name, type and current shape. */
public record TensorInfo(int index, String name, TensorType type, int[] shape, long bytes) {

    static TensorInfo of(int index, Tensor tensor) {
        TensorType type = tensor.type() == null ? null : TensorType.byName(tensor.type());
        return new TensorInfo(index, tensor.name(), type, tensor.shape().clone(), tensor.bytes());
    }

    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** The number of values: the product of the shape. */
    public long elements() {
        return Arrays.stream(shape).asLongStream().reduce(1, Math::multiplyExact);
    }

    @Override
    public String toString() {
        return index + " '" + name + "' " + (type == null ? "?" : type.jsonName().toLowerCase()) + " "
                + Arrays.toString(shape) + " (" + elements() + " values, " + bytes + " bytes)";
    }
}
