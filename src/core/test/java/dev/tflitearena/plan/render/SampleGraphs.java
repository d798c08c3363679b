package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.List;

import static dev.tflitearena.graph.GraphBuilder.ids;

/** Small graphs for the render tests, with every kind of tensor a picture treats apart. */
final class SampleGraphs {
    /** Rw tensors that own memory in {@link #chain()}: t0, t1, t3, t4, t5. */
    static final int OWNERS = 5;

    private SampleGraphs() {
    }

    /**
     * in (t0) -> t1 -> t2, in place on t1 -> t3 -> out (t4), with a temporary (t5) at node 0 and a persistent
     * temporary (t6) at node 2.
     */
    static Graph chain() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1000), a = g.tensor(2000), b = g.tensor(2000), c = g.tensor(1000), out = g.tensor(500);
        int temp = g.tensor(512), kept = g.tensor(300, Allocation.ARENA_RW_PERSISTENT);
        g.node(ids(in), ids(a), ids(temp), 0)
                .node(ids(a), ids(b), ids(), Inplace.INPUT0_SHARED)
                .node(ids(b), ids(c), ids(kept), 0)
                .node(ids(c), ids(out))
                .inputs(in).outputs(out);
        return g.build();
    }

    /** {@link #chain()} with t1 and the subgraph renamed. */
    static Graph chainNamed(String t1, String subgraph) {
        Graph graph = chain();
        Subgraph s = graph.subgraphs().get(0);
        List<Tensor> tensors = new ArrayList<>(s.tensors());
        Tensor t = tensors.get(1);
        tensors.set(1, new Tensor(1, t1, t.bytes(), t.allocation(), false, null, null));
        return new Graph(graph.options(), List.of(new Subgraph(0, subgraph, tensors, s.nodes(), s.inputs(),
                s.outputs(), s.variables())));
    }
}
