package dev.tflitearena.plan.catalog;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.order.MemoryOrder;

/**
 * A graph's rw lower bound (summed over subgraphs) under TFLite's rules and with each rule the project can
 * relax: graph inputs released after their last consumer ({@link Graph.Options#releaseInputs()}), the primary
 * subgraph in the memory-aware order ({@link MemoryOrder}), and both. What each rule costs is the difference.
 */
public record RuleBounds(long tfliteRules, long releaseInputs, long memoryOrder, long releaseInputsAndMemoryOrder) {

    public static RuleBounds of(Graph graph) {
        Graph kept = graph.withReleaseInputs(false);
        Graph released = graph.withReleaseInputs(true);
        return new RuleBounds(PlannerTable.lowerBound(kept), PlannerTable.lowerBound(released),
                PlannerTable.lowerBound(MemoryOrder.of(kept).graph()),
                PlannerTable.lowerBound(MemoryOrder.of(released).graph()));
    }
}
