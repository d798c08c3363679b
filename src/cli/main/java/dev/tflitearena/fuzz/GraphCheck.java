package dev.tflitearena.fuzz;

import dev.tflitearena.bridge.builder.NativeGraphBuilder;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One graph through the differential test: built and planned natively, planned by the reference Java planner
 * and compared tensor by tensor; then planned by every Java planner and validated. The native build checks
 * that the runtime holds the graph as given, so the graph itself is validated: its tensor names make the
 * validator's messages readable.
 *
 * @param comparison the native plan against the reference planner's; null when either failed
 * @param findings   what went wrong, empty when nothing did
 */
public record GraphCheck(PlanComparison comparison, List<Finding> findings) {
    /** Every plan is validated against this alignment, the native runtime's. */
    static final int TENSOR_ALIGNMENT = 64;

    public enum Kind {
        /** The reference planner's offsets or arena sizes differ from the native ones. */
        MISMATCH,
        /** A planner's plan broke a rule of the validator. */
        VALIDATOR,
        /** Something threw: the native runtime refused the graph, or a planner failed. */
        ERROR
    }

    /** @param who the planner concerned, or "native" */
    public record Finding(Kind kind, String who, String detail) {

        /**
         * The same failure: same kind, same culprit, same message once numbers are left out, so that shrinking
         * does not drift to another failure of the same planner.
         */
        boolean sameAs(Finding other) {
            return kind == other.kind && who.equals(other.who)
                    && withoutNumbers(detail).equals(withoutNumbers(other.detail));
        }

        /** One line for people: kind, culprit, what happened. */
        public String describe() {
            return kind.name().toLowerCase() + " (" + who + "): " + detail;
        }

        private static String withoutNumbers(String detail) {
            return detail.replaceAll("[0-9]+", "#");
        }
    }

    public int tensorsCompared() {
        return comparison == null ? 0
                : comparison.subgraphs().stream().mapToInt(PlanComparison.SubgraphComparison::tensorsCompared).sum();
    }

    /** The tensors whose offsets differ, as "subgraph name/tensor name": names survive renumbering. */
    public Set<String> mismatchedTensors(Graph graph) {
        Set<String> names = new HashSet<>();
        if (comparison != null) {
            for (PlanComparison.SubgraphComparison c : comparison.subgraphs()) {
                Subgraph s = graph.subgraphs().get(c.subgraph());
                c.mismatches().forEach(m -> names.add(s.name() + "/" + s.tensor(m.tensor()).name()));
            }
        }
        return names;
    }

    public static GraphCheck run(Graph graph, Planner reference, List<Planner> validated) {
        List<Finding> findings = new ArrayList<>();
        NativeGraphBuilder.Result built;
        try {
            built = NativeGraphBuilder.plan(graph);
        } catch (RuntimeException e) {
            return new GraphCheck(null, List.of(new Finding(Kind.ERROR, "native", e.toString())));
        }
        PlanComparison comparison = null;
        try {
            comparison = built.compareWith(reference);
            if (!comparison.identical()) {
                findings.add(new Finding(Kind.MISMATCH, reference.name(), describe(comparison)));
            }
        } catch (RuntimeException e) {
            findings.add(new Finding(Kind.ERROR, reference.name(), e.toString()));
        }
        for (Planner planner : validated) {
            Finding failure = validate(graph, planner);
            if (failure != null) {
                findings.add(failure);
            }
        }
        return new GraphCheck(comparison, findings);
    }

    /** The planner's plan of the graph through the validator: null when it passes. */
    static Finding validate(Graph graph, Planner planner) {
        try {
            PlanValidator.validate(graph, planner.plan(graph), TENSOR_ALIGNMENT);
            return null;
        } catch (InvalidPlanException e) {
            return new Finding(Kind.VALIDATOR, planner.name(), e.getMessage());
        } catch (RuntimeException e) {
            return new Finding(Kind.ERROR, planner.name(), e.toString());
        }
    }

    private static String describe(PlanComparison comparison) {
        return comparison.subgraphs().stream().filter(c -> !c.identical()).map(c -> "subgraph " + c.subgraph()
                + ": " + c.mismatches().size() + " of " + c.tensorsCompared() + " offsets differ"
                + c.mismatches().stream().limit(3).map(m -> ", tensor " + m.tensor() + " native "
                        + m.expectedOffset() + " java " + m.actualOffset()).collect(Collectors.joining())
                + "; arena native " + c.expected().arenaBytes() + " java " + c.actual().arenaBytes()
                + ", persistent native " + c.expected().persistentBytes() + " java " + c.actual().persistentBytes())
                .collect(Collectors.joining("; "));
    }
}
