package dev.tflitearena.graph;

/**
 * One node of a subgraph, in execution order. Tensor indices of -1 are absent optional tensors.
 * {@code inplace} holds the registration's {@code inplace_operator} bit flags (see {@link Inplace}).
 * Arrays are shared, not copied: treat them as read-only.
 */
public record Node(String op, int[] inputs, int[] outputs, int[] temporaries, int[] intermediates, int inplace) {
}
