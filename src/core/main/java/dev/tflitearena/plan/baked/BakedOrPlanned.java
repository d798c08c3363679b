package dev.tflitearena.plan.baked;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;

import java.util.function.Consumer;

/**
 * A model's baked plan where the validator accepts it for the graph being planned, else another planner's plan:
 * how a command runs a baked plan as a session does by default ({@code BakedPlanUse.IF_VALID}). Its name, once
 * it has planned a graph, is the planner whose plan it gave.
 */
public final class BakedOrPlanned implements Planner {
    private final BakedPlan baked;
    private final Planner otherwise;
    private final Consumer<String> notUsed;
    private String name = BakedPlanner.NAME;

    /** @param notUsed told why, when the validator refuses the baked plan for a graph */
    public BakedOrPlanned(BakedPlan baked, Planner otherwise, Consumer<String> notUsed) {
        this.baked = baked;
        this.otherwise = otherwise;
        this.notUsed = notUsed;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Plan plan(Graph graph) {
        Plan plan = new BakedPlanner(baked).plan(graph);
        try {
            Plan validated = PlanValidator.validated(graph, plan, graph.options().tensorAlignment());
            name = BakedPlanner.NAME;
            return validated;
        } catch (InvalidPlanException e) {
            name = otherwise.name();
            notUsed.accept("the validator refused it: " + e.getMessage());
            return otherwise.plan(graph);
        }
    }

    /** Refused: the validator checks a baked plan whole, against the graph, before any of it is used. */
    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        throw new UnsupportedOperationException("a baked plan is checked whole: plan the graph, not subgraph "
                + subgraph.index() + " alone");
    }
}
