package dev.tflitearena.plan;

import java.util.List;

/** A whole graph's plan by one planner, a {@link SubgraphPlan} per subgraph. */
public record Plan(String planner, List<SubgraphPlan> subgraphs) {

    public Plan {
        subgraphs = List.copyOf(subgraphs);
    }
}
