package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;

import java.util.Arrays;

/**
 * A tensor for {@link TfliteModelBuilder}: name, type and shape, and what only some tensors have: a
 * shape_signature (-1 for a dynamic dimension), quantization, the variable flag, the buffer holding
 * its constant data (0, the empty sentinel, for none), and how that data is compressed (null when it is
 * dense). Arrays are shared, not copied.
 */
public record TensorSpec(String name, TensorType type, int[] shape, int[] shapeSignature,
                         Quantization quantization, boolean variable, int buffer, Sparsity sparsity) {

    public TensorSpec {
        if (name == null || type == null || shape == null) {
            throw new IllegalArgumentException("a tensor needs a name, a type and a shape");
        }
        for (int d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("tensor '" + name + "': shape " + Arrays.toString(shape)
                        + " has a negative dimension; dynamic dimensions belong in the shape signature");
            }
        }
        if (shapeSignature != null) {
            if (shapeSignature.length != shape.length) {
                throw new IllegalArgumentException("tensor '" + name + "': shape signature "
                        + Arrays.toString(shapeSignature) + " has another rank than shape " + Arrays.toString(shape));
            }
            for (int d : shapeSignature) {
                if (d < -1) {
                    throw new IllegalArgumentException("tensor '" + name + "': shape signature "
                            + Arrays.toString(shapeSignature) + " has a dimension below -1");
                }
            }
        }
        if (buffer < 0) {
            throw new IllegalArgumentException("tensor '" + name + "': buffer " + buffer + " is negative");
        }
        if (sparsity != null) {
            sparsity.storedElements(name, shape);
        }
    }

    /** A plain tensor: no signature, no quantization, not variable, no data. */
    public static TensorSpec of(String name, TensorType type, int... shape) {
        return new TensorSpec(name, type, shape, null, null, false, 0, null);
    }

    public TensorSpec withShapeSignature(int... signature) {
        return new TensorSpec(name, type, shape, signature, quantization, variable, buffer, sparsity);
    }

    public TensorSpec withQuantization(Quantization q) {
        return new TensorSpec(name, type, shape, shapeSignature, q, variable, buffer, sparsity);
    }

    public TensorSpec asVariable() {
        return new TensorSpec(name, type, shape, shapeSignature, quantization, true, buffer, sparsity);
    }

    public TensorSpec withBuffer(int index) {
        return new TensorSpec(name, type, shape, shapeSignature, quantization, variable, index, sparsity);
    }

    /** Its data compressed as {@code s} says: the buffer holds only the elements the sparsity keeps. */
    public TensorSpec withSparsity(Sparsity s) {
        return new TensorSpec(name, type, shape, shapeSignature, quantization, variable, buffer, s);
    }
}
