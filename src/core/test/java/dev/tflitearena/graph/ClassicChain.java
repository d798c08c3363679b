package dev.tflitearena.graph;

import static dev.tflitearena.graph.GraphBuilder.ids;

/**
 * The classic worked example of arena reuse: 224x224x3 floats in, outputs of 112x112x16, 56x56x32, 28x28x64
 * and 1000 floats, one node after the other.
 */
public final class ClassicChain {
    private ClassicChain() {
    }

    public static Graph graph() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(602112), a = g.tensor(802816), b = g.tensor(401408), c = g.tensor(200704), out = g.tensor(4000);
        g.node(ids(in), ids(a)).node(ids(a), ids(b)).node(ids(b), ids(c)).node(ids(c), ids(out)).inputs(in).outputs(out);
        return g.build();
    }
}
