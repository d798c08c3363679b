package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

/**
 * A subgraph's rw memory before any planner runs: every activation in its own buffer (naive), the most
 * bytes live at once with graph inputs released after their last consumer ({@link Graph.Options#releaseInputs()}),
 * and the same under TFLite's rules, which keep graph inputs: the lower bound any TFLite-compatible plan can
 * reach.
 */
public record Ledger(long naiveBytes, long peakLiveBytes, long lowerBoundBytes) {

    public static Ledger of(Subgraph subgraph, Graph.Options options) {
        Lifetimes lifetimes = Lifetimes.of(subgraph, options);
        long naive = 0;
        for (Tensor tensor : subgraph.tensors()) {
            if (tensor.allocation() == Allocation.ARENA_RW
                    && lifetimes.allocNode(tensor.index()) != Lifetimes.NOT_ASSIGNED) {
                naive += tensor.bytes();
            }
        }
        return new Ledger(naive, LowerBound.of(subgraph, options.withReleaseInputs(true)),
                LowerBound.of(lifetimes));
    }
}
