package dev.tflitearena.plan.search;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.PlacerPlanner;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.time.Duration;

/**
 * A subgraph's plan whose rw arena stays within a budget, or why there is none, under the lifetime rules of
 * the graph's options. The given planner goes first; when its arena is over, a lower bound over the budget
 * proves that no plan is within it (the node where the most bytes are live, and those tensors, say why), and
 * otherwise the exact search ({@link OptimalPlacer#fit}) looks for a placement within the budget, proves
 * there is none, or runs out of time.
 */
public final class WithinBudget {
    public enum Verdict {
        /** {@link Outcome#plan()} is within the budget. */
        FITS,
        /** More bytes are live at one node than the budget: {@link Outcome#peak()} shows them. */
        BOUND_OVER_BUDGET,
        /** The exact search proved that no placement is within the budget. */
        DOES_NOT_FIT,
        /** The exact search found none within the time limit, nor proved there is none. */
        TIMED_OUT
    }

    /**
     * @param plan     within the budget when the verdict is FITS, else null
     * @param searched the plan or the answer came from the exact search, not from the planner
     * @param peak     the node where the most rw bytes are live and those buffers (tensors by index)
     * @param millis   the time the search took; 0 when it did not run
     */
    public record Outcome(int subgraph, Verdict verdict, SubgraphPlan plan, boolean searched, BufferSet.Peak peak,
                          long millis) {
        public long lowerBound() {
            return peak.bytes();
        }
    }

    private WithinBudget() {
    }

    public static Outcome of(Subgraph subgraph, Graph.Options options, Planner planner, long budget,
                             Duration timeLimit) {
        BufferSet buffers = BufferSet.of(subgraph, options);
        BufferSet.Peak peak = buffers.peak();
        SubgraphPlan first = planner.plan(subgraph, options);
        if (first.arenaBytes() <= budget) {
            return new Outcome(subgraph.index(), Verdict.FITS, first, false, peak, 0);
        }
        if (peak.bytes() > budget) {
            return new Outcome(subgraph.index(), Verdict.BOUND_OVER_BUDGET, null, false, peak, 0);
        }
        OptimalPlacer.Fit fit = new OptimalPlacer(timeLimit).fit(buffers, budget);
        return switch (fit.verdict()) {
            case FITS -> new Outcome(subgraph.index(), Verdict.FITS, PlacerPlanner.withPlacement(subgraph,
                    new TflitePlanner().plan(subgraph, options), buffers, new Placer.Solution(fit.offsets(), false)),
                    true, peak, fit.millis());
            case DOES_NOT_FIT -> new Outcome(subgraph.index(), Verdict.DOES_NOT_FIT, null, true, peak, fit.millis());
            case TIMED_OUT -> new Outcome(subgraph.index(), Verdict.TIMED_OUT, null, true, peak, fit.millis());
        };
    }
}
