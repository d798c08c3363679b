package dev.tflitearena.plan.catalog;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.progress.Progress;

import java.util.ArrayList;
import java.util.List;

/**
 * Several planners on one graph or buffer set, side by side: each one's arena, how long it took, and
 * whether it is proven optimal; the lower bound they are measured against. Every plan is validated. Each
 * planner is an item of the progress given.
 */
public final class PlannerTable {
    /** One planner's result; {@code plan} for a graph, {@code offsets} for a buffer set. */
    public record Row(String name, long arenaBytes, boolean provenOptimal, long millis, Plan plan, long[] offsets) {
        public double gap(long lowerBound) {
            return LowerBound.gap(arenaBytes, lowerBound);
        }
    }

    private PlannerTable() {
    }

    /** The rw arenas summed over subgraphs, against the sum of their lower bounds. */
    public static List<Row> of(Graph graph, List<Planner> planners, Progress progress) {
        List<Row> rows = new ArrayList<>();
        for (Planner planner : planners) {
            progress.advance(rows.size(), planners.size(), "planner " + planner.name());
            long start = System.nanoTime();
            Plan plan = planner.plan(graph);
            long millis = (System.nanoTime() - start) / 1_000_000;
            PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
            long arena = plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum();
            boolean proven = true;
            for (SubgraphPlan sp : plan.subgraphs()) {
                proven &= sp.provenOptimal()
                        || sp.arenaBytes() == LowerBound.of(graph.subgraphs().get(sp.subgraph()), graph.options());
            }
            rows.add(new Row(planner.name(), arena, proven, millis, plan, null));
        }
        return rows;
    }

    public static List<Row> of(BufferSet buffers, List<Placer> placers, Progress progress) {
        List<Row> rows = new ArrayList<>();
        long bound = buffers.lowerBound();
        for (Placer placer : placers) {
            progress.advance(rows.size(), placers.size(), "planner " + placer.name());
            long start = System.nanoTime();
            Placer.Solution solution = placer.place(buffers);
            long millis = (System.nanoTime() - start) / 1_000_000;
            buffers.validate(solution.offsets());
            long arena = buffers.arenaBytes(solution.offsets());
            rows.add(new Row(placer.name(), arena, solution.provenOptimal() || arena == bound, millis, null,
                    solution.offsets()));
        }
        return rows;
    }

    /** The sum of the subgraphs' rw lower bounds. */
    public static long lowerBound(Graph graph) {
        return graph.subgraphs().stream().mapToLong(s -> LowerBound.of(s, graph.options())).sum();
    }
}
