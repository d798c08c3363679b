package dev.tflitearena.graph;

import java.util.ArrayList;
import java.util.List;

/** Hand-made single-subgraph graphs for tests. */
public final class GraphBuilder {
    private final List<Tensor> tensors = new ArrayList<>();
    private final List<Node> nodes = new ArrayList<>();
    private int[] inputs = {};
    private int[] outputs = {};
    private int[] variables = {};
    private Graph.Options options = Graph.Options.DEFAULT;

    /** Adds an ArenaRw tensor; returns its index. */
    public int tensor(long bytes) {
        return tensor(bytes, Allocation.ARENA_RW);
    }

    public int tensor(long bytes, Allocation allocation) {
        int index = tensors.size();
        tensors.add(new Tensor(index, "t" + index, bytes, allocation, false, null, null));
        return index;
    }

    public GraphBuilder node(int[] inputs, int[] outputs) {
        return node(inputs, outputs, new int[0], 0);
    }

    public GraphBuilder node(int[] inputs, int[] outputs, int[] temporaries, int inplace) {
        nodes.add(new Node("OP" + nodes.size(), inputs, outputs, temporaries, new int[0], inplace));
        return this;
    }

    /** A node of a named op (TFLite 2.12 shares memory by op), no temporaries. */
    public GraphBuilder op(String op, int[] inputs, int[] outputs, int inplace) {
        nodes.add(new Node(op, inputs, outputs, new int[0], new int[0], inplace));
        return this;
    }

    public GraphBuilder inputs(int... tensors) {
        inputs = tensors;
        return this;
    }

    public GraphBuilder outputs(int... tensors) {
        outputs = tensors;
        return this;
    }

    public GraphBuilder variables(int... tensors) {
        variables = tensors;
        return this;
    }

    public GraphBuilder options(int tensorAlignment, boolean preserveAllTensors) {
        options = new Graph.Options(tensorAlignment, preserveAllTensors, options.release(), options.releaseInputs());
        return this;
    }

    /** Graph inputs released after their last consumer ({@link Graph.Options#releaseInputs()}). */
    public GraphBuilder releaseInputs(boolean on) {
        options = options.withReleaseInputs(on);
        return this;
    }

    public GraphBuilder release(TfliteRelease release) {
        options = options.withRelease(release);
        return this;
    }

    public Graph build() {
        return new Graph(options, List.of(new Subgraph(0, "main", tensors, nodes, inputs, outputs, variables)));
    }

    public static int[] ids(int... tensors) {
        return tensors;
    }
}
