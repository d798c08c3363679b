package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;

/**
 * The schema's TensorType codes, which number the types otherwise than TfLiteType does. The generated
 * {@code org.tensorflow.lite.schema.TensorType} stops at INT4 (17); TFLite 2.20 adds BFLOAT16 (18) and
 * INT2 (19), written here by hand. Later codes read as unknown.
 */
final class SchemaTypes {
    private static final TensorType[] BY_CODE = {
        TensorType.FLOAT32, TensorType.FLOAT16, TensorType.INT32, TensorType.UINT8, TensorType.INT64,
        TensorType.STRING, TensorType.BOOL, TensorType.INT16, TensorType.COMPLEX64, TensorType.INT8,
        TensorType.FLOAT64, TensorType.COMPLEX128, TensorType.UINT64, TensorType.RESOURCE, TensorType.VARIANT,
        TensorType.UINT32, TensorType.UINT16, TensorType.INT4, TensorType.BFLOAT16, TensorType.INT2,
    };

    private SchemaTypes() {
    }

    /** The type of a schema code, or null for a code this reader does not know. */
    static TensorType type(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The schema code of a type; NOTYPE has none. */
    static byte code(TensorType type) {
        for (int code = 0; code < BY_CODE.length; code++) {
            if (BY_CODE[code] == type) {
                return (byte) code;
            }
        }
        throw new IllegalArgumentException("type " + type + " cannot be written to a .tflite file");
    }

    /** How many codes this reader knows. */
    static int count() {
        return BY_CODE.length;
    }
}
