package dev.tflitearena.bench;

import dev.tflitearena.bridge.ArenaTemplate;
import dev.tflitearena.bridge.Handover;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.JavaArena;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.ValidatedPlan;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * Setting an interpreter up end to end: TFLite's own {@code AllocateTensors()} (ops prepared, then planned
 * natively) against the Java way (see {@link PlannerParam#handOver}: snapshot, plan, handover) from an
 * interpreter prepared earlier in the trial. The model is loaded and the fresh interpreter built outside the
 * measured call on both sides; the snapshot is the native layer's one call per subgraph where it is in use
 * ({@code NativeLayer.available()}), else the per-field one. A session after its recipe's first pays less: the
 * plan is made and validated once per model and input shapes, and each interpreter gets an arena laid out by it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SetupBenchmark {

    /** A new interpreter per call: {@code AllocateTensors()} does nothing on one that has allocated. */
    @State(Scope.Thread)
    public static class Fresh {
        NativeInterpreter interpreter;

        @Setup(Level.Invocation)
        public void build(PreparedModel prepared) {
            interpreter = prepared.build();
        }

        @TearDown(Level.Invocation)
        public void close() {
            interpreter.close();
        }
    }

    @Benchmark
    public void nativeAllocateTensors(Fresh fresh) {
        fresh.interpreter.allocateTensors();
    }

    /** The snapshot, plan and validation a recipe makes once (see {@code InterpreterRecipe}). */
    @State(Scope.Benchmark)
    public static class Planned {
        ArenaTemplate template;

        @Setup(Level.Trial)
        public void plan(PreparedModel prepared, PlannerParam planner) {
            Graph graph = prepared.interpreter.snapshot();
            template = ArenaTemplate.of(ValidatedPlan.of(graph, PlannerParam.byName(planner.planner).plan(graph),
                    JavaArena.ALIGNMENT));
        }
    }

    @Benchmark
    public Handover javaPlanAndAllocateTensors(PreparedModel prepared, PlannerParam planner, Fresh fresh) {
        return planner.handOver(prepared.interpreter, fresh.interpreter);
    }

    @Benchmark
    public Handover javaReusedPlanAndAllocateTensors(Planned planned, Fresh fresh) {
        try (JavaArena arena = planned.template.allocate()) {
            return fresh.interpreter.allocateTensors(arena);
        }
    }
}
