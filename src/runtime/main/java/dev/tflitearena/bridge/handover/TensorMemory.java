package dev.tflitearena.bridge.handover;

/**
 * Tensors of one subgraph that a handover gives memory the interpreter does not own, each with the address
 * and size of its memory. The arrays are never written.
 */
public record TensorMemory(int[] tensors, long[] addresses, long[] bytes) {
}
