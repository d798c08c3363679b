package dev.tflitearena.graph;

import java.util.List;

/**
 * One subgraph: its tensors (position in the list equals the tensor index), its nodes in execution order,
 * and the graph-level tensor lists. Arrays are shared, not copied: treat them as read-only.
 */
public record Subgraph(int index, String name, List<Tensor> tensors, List<Node> nodes,
                       int[] inputs, int[] outputs, int[] variables) {

    public Subgraph {
        tensors = List.copyOf(tensors);
        nodes = List.copyOf(nodes);
    }

    public Tensor tensor(int index) {
        return tensors.get(index);
    }
}
