package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;

/**
 * One tensor of a subgraph as the file declares it. {@code type} is null for a type code this reader does
 * not know. {@code shapeSignature} is null when the file has none; -1 marks a dynamic dimension there.
 * {@code bytes} is the element count times the element size, INT4 packed two to a byte and INT2 four, as the
 * runtime allocates them; -1 for a type without a fixed size (STRING, RESOURCE, VARIANT, unknown).
 * {@code constant} means its buffer holds data, {@code dataBytes} long; a sparse constant's data is smaller than {@code bytes}, which counts the dense shape.
 * {@code quantization} is null when the tensor has none. Arrays are shared, not copied: treat them as
 * read-only.
 */
public record TfliteTensor(int index, String name, TensorType type, int[] shape, int[] shapeSignature, long bytes,
                           boolean constant, boolean variable, int buffer, long dataBytes, boolean sparse,
                           Quantization quantization) {

    /**
     * "constant" for a tensor with data in the file, "variable" for a variable's state, else "activation":
     * what a naive count of a model's memory tells apart.
     */
    public String kind() {
        return constant ? "constant" : variable ? "variable" : "activation";
    }

    /** The type's name, or "unknown". */
    public String typeName() {
        return type == null ? "unknown" : type.jsonName();
    }

    /** The number of elements of the shape; the reader has checked that it fits a long. */
    public long elements() {
        long n = 1;
        for (int d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /** True when the shape signature marks a dimension dynamic. */
    public boolean dynamic() {
        if (shapeSignature == null) {
            return false;
        }
        for (int d : shapeSignature) {
            if (d < 0) {
                return true;
            }
        }
        return false;
    }
}
