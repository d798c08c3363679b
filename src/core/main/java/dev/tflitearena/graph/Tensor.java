package dev.tflitearena.graph;

/**
 * One tensor of a subgraph. {@code shape} and {@code type} are informative; the planners only read
 * {@code bytes} and {@code allocation}. Arrays are shared, not copied: treat them as read-only.
 */
public record Tensor(int index, String name, long bytes, Allocation allocation, boolean variable,
                     String type, int[] shape) {
}
