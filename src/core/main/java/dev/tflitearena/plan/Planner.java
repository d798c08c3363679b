package dev.tflitearena.plan;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;

import java.util.List;

/** A placement strategy: gives every arena tensor of a subgraph an offset within TFLite's lifetimes. */
public interface Planner {

    /** The name users select it by, as in {@code --planner NAME}. */
    String name();

    SubgraphPlan plan(Subgraph subgraph, Graph.Options options);

    default Plan plan(Graph graph) {
        List<SubgraphPlan> plans = graph.subgraphs().stream().map(s -> plan(s, graph.options())).toList();
        return new Plan(name(), plans);
    }
}
