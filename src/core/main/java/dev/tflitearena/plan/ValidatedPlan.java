package dev.tflitearena.plan;

import dev.tflitearena.graph.Graph;

/**
 * A plan the validator accepted for its graph at an alignment, its subgraph entries in subgraph order. Only
 * {@link #of} makes one, so whoever holds one may lay the plan out again and again (one arena per session of a
 * model) without checking it each time, and apply its entries by position.
 */
public final class ValidatedPlan {
    private final Graph graph;
    private final Plan plan;
    private final long alignment;

    private ValidatedPlan(Graph graph, Plan plan, long alignment) {
        this.graph = graph;
        this.plan = plan;
        this.alignment = alignment;
    }

    /** Throws {@link InvalidPlanException} naming the first problem, as {@link PlanValidator#validate} does. */
    public static ValidatedPlan of(Graph graph, Plan plan, long requiredAlignment) {
        return new ValidatedPlan(graph, PlanValidator.validated(graph, plan, requiredAlignment), requiredAlignment);
    }

    public Graph graph() {
        return graph;
    }

    /** The plan, entry {@code s} of its subgraphs the plan of subgraph {@code s}. */
    public Plan plan() {
        return plan;
    }

    /** The alignment every offset was checked to be a multiple of. */
    public long alignment() {
        return alignment;
    }
}
