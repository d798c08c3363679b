package dev.tflitearena.plan;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import org.junit.jupiter.api.Test;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The classic worked example: 224x224x3 floats through outputs of 112x112x16, 56x56x32, 28x28x64 and 1000. */
class LedgerTest {
    private static Graph chain() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(602112), a = g.tensor(802816), b = g.tensor(401408), c = g.tensor(200704), out = g.tensor(4000);
        g.node(ids(in), ids(a)).node(ids(a), ids(b)).node(ids(b), ids(c)).node(ids(c), ids(out)).inputs(in).outputs(out);
        return g.build();
    }

    @Test
    void naivePeakAndLowerBoundOfTheChain() {
        Graph graph = chain();
        Ledger ledger = Ledger.of(graph.subgraphs().get(0), graph.options());
        // 602112 + 802816 + 401408 + 200704 + 4000; counting the output as a full 4 KiB would give 2,011,136.
        assertEquals(2_011_040, ledger.naiveBytes());
        assertEquals(1_404_928, ledger.peakLiveBytes(), "input freed after node 0");
        assertEquals(1_806_336, ledger.lowerBoundBytes(), "input kept, as TFLite keeps graph inputs");
    }

    @Test
    void tflitesPlanReachesTheLowerBoundOnTheChain() {
        Graph graph = chain();
        assertEquals(1_806_336, new TflitePlanner().plan(graph).subgraphs().get(0).arenaBytes());
    }

    @Test
    void lowerBoundOfBufferIntervals() {
        // Two buffers live together at step 1 only.
        assertEquals(30, LowerBound.of(new long[]{10, 20, 5}, new int[]{0, 1, 2}, new int[]{1, 1, 3}, 4));
        assertEquals(0, LowerBound.of(new long[0], new int[0], new int[0], 1));
    }
}
