package dev.tflitearena.bench;

import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.handover.Handover;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;

/** The Java planner whose plan a set-up or invoke benchmark hands to TFLite: {@code tflite} unless asked. */
@State(Scope.Benchmark)
public class PlannerParam {
    /**
     * {@code optimal} is an anytime search that runs until its time limit, so its latency is that limit; it
     * is measured only when asked for by name, and then stops at this.
     */
    static final Duration OPTIMAL_TIME_LIMIT = Duration.ofMillis(100);

    @Param(TflitePlanner.NAME)
    public String planner;

    /**
     * The Java way to set an interpreter up: snapshot an interpreter of the model prepared earlier, plan the
     * snapshot, allocate and validate the Java arena, and hand it to {@code fresh} in its first
     * {@code AllocateTensors()}.
     */
    Handover handOver(NativeInterpreter prepared, NativeInterpreter fresh) {
        Graph graph = prepared.snapshot();
        try (JavaArena arena = JavaArena.allocate(graph, byName(planner).plan(graph))) {
            return fresh.allocateTensors(arena);
        }
    }

    static Planner byName(String name) {
        return Planners.byName(name, OPTIMAL_TIME_LIMIT);
    }
}
