package dev.tflitearena.bridge.handover;

import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.ValidatedPlan;

/**
 * A validated plan with what the handover derives from it ({@link HandoverPlan}), both made once: a recipe
 * lays the plan out again for every interpreter it builds, each in an arena of its own.
 */
public final class ArenaTemplate {
    private final ValidatedPlan validated;
    private final HandoverPlan handover;

    private ArenaTemplate(ValidatedPlan validated) {
        this.validated = validated;
        this.handover = HandoverPlan.of(validated.graph(), validated.plan());
    }

    /** Refuses a plan validated at less than, or not a multiple of, the alignment a Java arena needs. */
    public static ArenaTemplate of(ValidatedPlan validated) {
        if (validated.alignment() % JavaArena.ALIGNMENT != 0) {
            throw new IllegalArgumentException("the plan was validated at an alignment of " + validated.alignment()
                    + " bytes; a Java arena needs multiples of " + JavaArena.ALIGNMENT);
        }
        return new ArenaTemplate(validated);
    }

    /** The validated plan, its subgraph entries in subgraph order. */
    public Plan plan() {
        return validated.plan();
    }

    /** A new arena laid out by the plan; nothing is checked again. */
    public JavaArena allocate() {
        return JavaArena.allocate(validated.graph(), validated.plan(), handover);
    }
}
