package dev.tflitearena.bench;

import dev.tflitearena.bridge.NativeArenaPlanner;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.place.BestOfPlacer;
import dev.tflitearena.plan.place.GreedyByBreadthPlacer;
import dev.tflitearena.plan.place.GreedyBySizePlacer;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.place.TflmLinearPlacer;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Planning alone, no op preparation: TFLite's ArenaPlanner re-planning the prepared interpreter's subgraphs
 * in place, against each Java planner on the snapshot of that same interpreter.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PlanningBenchmark {

    @State(Scope.Benchmark)
    public static class NativePlanners {
        List<NativeArenaPlanner> planners;

        @Setup(Level.Trial)
        public void locate(PreparedModel prepared) {
            planners = IntStream.range(0, prepared.interpreter.snapshot().subgraphs().size())
                    .mapToObj(s -> NativeArenaPlanner.locate(prepared.interpreter, s)).toList();
        }
    }

    /** Every planner but {@code optimal}, whose latency is its time limit (see {@link PlannerParam}). */
    @State(Scope.Benchmark)
    public static class JavaPlanner {
        @Param({TflitePlanner.NAME, TflmGreedyPlacer.NAME, TflmLinearPlacer.NAME, GreedyBySizePlacer.NAME,
                GreedyByBreadthPlacer.NAME, BestOfPlacer.NAME})
        public String planner;

        Planner strategy;
        Graph graph;

        @Setup(Level.Trial)
        public void snapshot(PreparedModel prepared) {
            strategy = PlannerParam.byName(planner);
            graph = prepared.interpreter.snapshot();
        }
    }

    /** ResetAllocations, PlanAllocations and ExecuteAllocations(0, last) of every subgraph. */
    @Benchmark
    public void nativeArenaPlanner(NativePlanners natives) {
        for (NativeArenaPlanner planner : natives.planners) {
            planner.replan();
        }
    }

    @Benchmark
    public Plan javaPlanner(JavaPlanner java) {
        return java.strategy.plan(java.graph);
    }
}
