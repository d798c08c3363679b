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

/** The validator reuses the lifetimes its thread derived last, for that very subgraph and options only. */
class LifetimesReuseTest {
    private static final int IN = 0;

    // in(0) -> a(1) -> out(2): the input's last consumer is node 0.
    private static Graph chain() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), a = g.tensor(1024), out = g.tensor(1024);
        return g.node(ids(in), ids(a)).node(ids(a), ids(out)).inputs(in).outputs(out).build();
    }

    @Test
    void ofAlwaysDerivesAndReuseTakesWhatItDerivedLast() {
        Graph graph = chain();
        Subgraph subgraph = graph.subgraphs().get(0);
        Lifetimes first = Lifetimes.of(subgraph, graph.options());
        Lifetimes second = Lifetimes.of(subgraph, graph.options());
        assertNotSame(first, second, "a planner timed again and again derives them every time");
        assertSame(second, Lifetimes.reuse(subgraph, graph.options()));
    }

    @Test
    void otherOptionsOrAnEqualCopyOfTheSubgraphAreDerivedAgain() {
        Graph graph = chain();
        Subgraph subgraph = graph.subgraphs().get(0);
        Graph.Options released = new Graph.Options(graph.options().tensorAlignment(),
                graph.options().preserveAllTensors(), graph.options().release(), true);
        Lifetimes kept = Lifetimes.of(subgraph, graph.options());
        Lifetimes freed = Lifetimes.reuse(subgraph, released);
        assertNotSame(kept, freed);
        assertEquals(Lifetimes.NOT_ASSIGNED, kept.deallocNode(IN), "TFLite keeps graph inputs");
        assertEquals(0, freed.deallocNode(IN), "released after its last consumer");
        assertEquals(Lifetimes.NOT_ASSIGNED, Lifetimes.reuse(subgraph, graph.options()).deallocNode(IN));

        Subgraph copy = new Subgraph(subgraph.index(), subgraph.name(), subgraph.tensors(), subgraph.nodes(),
                subgraph.inputs(), subgraph.outputs(), subgraph.variables());
        Lifetimes last = Lifetimes.of(subgraph, graph.options());
        assertNotSame(last, Lifetimes.reuse(copy, graph.options()), "reuse goes by identity, not by equality");
    }

    @Test
    void eachThreadReusesOnlyItsOwn() throws Exception {
        Graph graph = chain();
        Subgraph subgraph = graph.subgraphs().get(0);
        Lifetimes here = Lifetimes.of(subgraph, graph.options());
        Lifetimes there = CompletableFuture.supplyAsync(() -> Lifetimes.reuse(subgraph, graph.options())).get();
        assertNotSame(here, there);
        assertEquals(here.lastNode(IN), there.lastNode(IN));
    }
}
