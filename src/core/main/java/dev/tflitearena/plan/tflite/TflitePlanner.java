package dev.tflitearena.plan.tflite;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;

/**
 * TFLite's own CPU planner, ArenaPlanner over two SimpleMemoryArenas: offsets equal the native ones, tensor
 * by tensor, under the rules of the release the graph's options name (2.12 to 2.20 differ only in which
 * outputs share memory, see {@link Lifetimes}). Ties in the allocation order are broken as the native
 * library, built with GCC, breaks them: candidates come from per-node hash sets and are ordered by
 * libstdc++'s introsort.
 *
 * <p>A static graph is planned in one {@code ExecuteAllocations(0, last node)}. TFLite plans a graph with
 * dynamic-shape ops in pieces: up to and including the first node with a dynamic output when tensors are
 * allocated, and each following piece during the first invoke, once the node before it has run. The plan
 * here is that state after the first invoke, when every node has been planned.
 */
public final class TflitePlanner implements Planner {
    public static final String NAME = "tflite";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        ArenaPlanner planner = new ArenaPlanner(subgraph, options);
        int first = 0;
        int last = subgraph.nodes().size() - 1;
        if (last < 0) {
            // TFLite still runs ExecuteAllocations(0, 0) on an empty subgraph: its inputs and variables get placed.
            planner.executeAllocations(0, 0);
            return planner.result();
        }
        for (int node = 0; node <= last; node++) {
            if (hasDynamicOutput(subgraph, subgraph.nodes().get(node)) || node == last) {
                planner.executeAllocations(first, node);
                first = node + 1;
            }
        }
        return planner.result();
    }

    /** True when the graph has a node whose output TFLite can only size while it runs. */
    public static boolean isDynamic(Graph graph) {
        return graph.subgraphs().stream()
                .anyMatch(s -> s.nodes().stream().anyMatch(n -> hasDynamicOutput(s, n)));
    }

    private static boolean hasDynamicOutput(Subgraph subgraph, Node node) {
        for (int t : node.outputs()) {
            if (t >= 0 && subgraph.tensor(t).allocation() == Allocation.DYNAMIC) {
                return true;
            }
        }
        return false;
    }
}
