package dev.tflitearena.graph;

/**
 * TFLite's {@code TfLiteType}, named as {@code TfLiteTypeGetName} names them, with the element size of the
 * fixed-size ones so that a tensor's bytes can be checked against its shape.
 */
public enum TensorType {
    NOTYPE(0), FLOAT32(4), INT32(4), UINT8(1), INT64(8), STRING(0), BOOL(1), INT16(2), COMPLEX64(8),
    INT8(1), FLOAT16(2), FLOAT64(8), COMPLEX128(16), UINT64(8), RESOURCE(0), VARIANT(0), UINT32(4),
    UINT16(2), INT4(0), BFLOAT16(2), INT2(0);

    private final int elementBytes;

    TensorType(int elementBytes) {
        this.elementBytes = elementBytes;
    }

    /** The name used in the graph JSON and by {@code TfLiteTypeGetName}. */
    public String jsonName() {
        return name();
    }

    /** Bytes of one element, or 0 when the type has no fixed element size. */
    public int elementBytes() {
        return elementBytes;
    }

    /** Bytes a dense tensor of this shape needs, or -1 when the type has no fixed element size. */
    public long bytesFor(int[] shape) {
        if (elementBytes == 0) {
            return -1;
        }
        long elements = 1;
        for (int d : shape) {
            elements = Math.multiplyExact(elements, d);
        }
        return Math.multiplyExact(elements, elementBytes);
    }

    /** The type named so, or null when the name is not one of TFLite's. */
    public static TensorType byName(String name) {
        for (TensorType t : values()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
