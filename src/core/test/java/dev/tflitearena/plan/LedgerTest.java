package dev.tflitearena.plan;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.ClassicChain;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The classic worked example: 224x224x3 floats through outputs of 112x112x16, 56x56x32, 28x28x64 and 1000. */
class LedgerTest {
    @Test
    void naivePeakAndLowerBoundOfTheChain() {
        Graph graph = ClassicChain.graph();
        Ledger ledger = Ledger.of(graph.subgraphs().get(0), graph.options());
        // 602112 + 802816 + 401408 + 200704 + 4000; counting the output as a full 4 KiB would give 2,011,136.
        assertEquals(2_011_040, ledger.naiveBytes());
        assertEquals(1_404_928, ledger.peakLiveBytes(), "input freed after node 0");
        assertEquals(1_806_336, ledger.lowerBoundBytes(), "input kept, as TFLite keeps graph inputs");
    }

    @Test
    void tflitesPlanReachesTheLowerBoundOnTheChain() {
        Graph graph = ClassicChain.graph();
        assertEquals(1_806_336, new TflitePlanner().plan(graph).subgraphs().get(0).arenaBytes());
    }

    @Test
    void lowerBoundOfBufferIntervals() {
        // Two buffers live together at step 1 only.
        assertEquals(30, LowerBound.of(new long[]{10, 20, 5}, new int[]{0, 1, 2}, new int[]{1, 1, 3}, 4));
        assertEquals(0, LowerBound.of(new long[0], new int[0], new int[0], 1));
        assertEquals(1, LowerBound.peakStep(new long[]{10, 20, 5}, new int[]{0, 1, 2}, new int[]{1, 1, 3}, 4));
        assertEquals(0, LowerBound.peakStep(new long[]{5, 5}, new int[]{0, 1}, new int[]{0, 1}, 2), "first on a tie");
    }

    @Test
    void thePeakOfTheChainIsNodeOneWhereTheInputAndTwoOutputsAreLive() {
        Graph graph = ClassicChain.graph();
        BufferSet.Peak peak = BufferSet.of(graph.subgraphs().get(0), graph.options()).peak();
        assertEquals(1, peak.step());
        assertEquals(1_806_336, peak.bytes(), "the lower bound");
        assertEquals(List.of(0, 1, 2), peak.live().stream().map(BufferSet.Buffer::id).toList());
    }
}
