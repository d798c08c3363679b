package dev.tflitearena.plan.baked;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;

/**
 * A baked plan as a planner: it gives the plan it carries, for the graph it was made for; the validator then
 * says whether the plan fits the prepared interpreter, as it does for every plan.
 */
public record BakedPlanner(BakedPlan baked) implements Planner {
    public static final String NAME = "baked";

    @Override
    public String name() {
        return NAME;
    }

    /** The plan as it is: whether its entries fit the graph is the validator's to say. */
    @Override
    public Plan plan(Graph graph) {
        return new Plan(NAME, baked.plan().subgraphs());
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        return baked.plan().subgraphs().stream().filter(sp -> sp.subgraph() == subgraph.index()).findFirst()
                .orElseThrow(() -> new InvalidPlanException("the baked plan has no subgraph " + subgraph.index()));
    }
}
