package dev.tflitearena.plan;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.Subgraph;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A thread asking twice for one subgraph's lifetimes under the same options gets them made once. */
class LifetimesReuseTest {
    private static final int IN = 0;

    // in(0) -> a(1) -> out(2): the input's last consumer is node 0.
    private static Graph chain() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), a = g.tensor(1024), out = g.tensor(1024);
        return g.node(ids(in), ids(a)).node(ids(a), ids(out)).inputs(in).outputs(out).build();
    }

    @Test
    void theSameSubgraphAndOptionsGiveTheSameLifetimes() {
        Graph graph = chain();
        Subgraph subgraph = graph.subgraphs().get(0);
        assertSame(Lifetimes.of(subgraph, graph.options()), Lifetimes.of(subgraph, graph.options()));
    }

    @Test
    void otherOptionsOrAnEqualCopyOfTheSubgraphAreDerivedAgain() {
        Graph graph = chain();
        Subgraph subgraph = graph.subgraphs().get(0);
        Graph.Options released = new Graph.Options(graph.options().tensorAlignment(),
                graph.options().preserveAllTensors(), graph.options().release(), true);
        Lifetimes kept = Lifetimes.of(subgraph, graph.options());
        Lifetimes freed = Lifetimes.of(subgraph, released);
        assertEquals(Lifetimes.NOT_ASSIGNED, kept.deallocNode(IN), "TFLite keeps graph inputs");
        assertEquals(0, freed.deallocNode(IN), "released after its last consumer");
        assertEquals(Lifetimes.NOT_ASSIGNED, Lifetimes.of(subgraph, graph.options()).deallocNode(IN));

        Subgraph copy = new Subgraph(subgraph.index(), subgraph.name(), subgraph.tensors(), subgraph.nodes(),
                subgraph.inputs(), subgraph.outputs(), subgraph.variables());
        Lifetimes first = Lifetimes.of(subgraph, graph.options());
        assertNotSame(first, Lifetimes.of(copy, graph.options()), "reuse goes by identity, not by equality");
    }

    @Test
    void eachThreadDerivesItsOwn() throws Exception {
        Graph graph = chain();
        Subgraph subgraph = graph.subgraphs().get(0);
        Lifetimes here = Lifetimes.of(subgraph, graph.options());
        Lifetimes there = CompletableFuture.supplyAsync(() -> Lifetimes.of(subgraph, graph.options())).get();
        assertNotSame(here, there);
        assertEquals(here.lastNode(IN), there.lastNode(IN));
    }
}
