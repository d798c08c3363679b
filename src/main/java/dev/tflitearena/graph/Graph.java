package dev.tflitearena.graph;

import java.util.List;

/** A whole model as the planners see it: planner options and every subgraph, primary first. */
public record Graph(Options options, List<Subgraph> subgraphs) {

    /** The planner settings TFLite's Subgraph passes to its ArenaPlanner. */
    public record Options(int tensorAlignment, boolean preserveAllTensors) {
        public static final int DEFAULT_TENSOR_ALIGNMENT = 64;
        public static final Options DEFAULT = new Options(DEFAULT_TENSOR_ALIGNMENT, false);

        public Options {
            if (tensorAlignment < 1 || tensorAlignment > 64) {
                throw new IllegalArgumentException(
                        "tensor_alignment must be from 1 to 64 (no more than the arena's own alignment), got "
                                + tensorAlignment);
            }
        }
    }

    public Graph {
        subgraphs = List.copyOf(subgraphs);
    }
}
