package dev.tflitearena.graph.tflite;

import java.util.List;

/**
 * One subgraph as the file declares it: its tensors (position equals index), operators in execution order,
 * and its input and output tensors. Arrays are shared, not copied: treat them as read-only.
 */
public record TfliteSubgraph(int index, String name, List<TfliteTensor> tensors, List<TfliteOperator> operators,
                             int[] inputs, int[] outputs) {

    public TfliteSubgraph {
        tensors = List.copyOf(tensors);
        operators = List.copyOf(operators);
    }

    public TfliteTensor tensor(int index) {
        return tensors.get(index);
    }
}
