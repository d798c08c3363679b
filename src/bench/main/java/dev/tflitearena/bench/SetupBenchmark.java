package dev.tflitearena.bench;

import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.handover.ArenaTemplate;
import dev.tflitearena.bridge.handover.Handover;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.ValidatedPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.BakedPlanner;
import dev.tflitearena.plan.baked.BakedPlans;
import dev.tflitearena.plan.baked.PlanFingerprint;
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
 *
 * <p>The Java way's phases are also timed one by one, each against the same native {@code AllocateTensors()}:
 * snapshot, plan, validation, and the handover of a plan validated before (the reused set-up, which also leaves
 * out reading the plan for the handover, done once per template). Each phase runs where it runs in the whole,
 * between building a fresh interpreter and closing it; the phases that do not hand over leave it unused. Alone,
 * a phase still runs on caches and branch predictors warmed by its own kind of work, so the phases add up to
 * less than the whole.
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
        Graph graph;
        Plan plan;
        ArenaTemplate template;

        @Setup(Level.Trial)
        public void plan(PreparedModel prepared, PlannerParam planner) {
            graph = prepared.interpreter.snapshot();
            plan = PlannerParam.byName(planner.planner).plan(graph);
            template = ArenaTemplate.of(ValidatedPlan.of(graph, plan, JavaArena.ALIGNMENT));
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

    /**
     * A plan baked into the model ({@code bake --for tflite}), made in the trial and read back from its metadata
     * entry's bytes, as {@code TfLiteModel.load} reads it once per model.
     */
    @State(Scope.Benchmark)
    public static class Baked {
        BakedPlan plan;

        @Setup(Level.Trial)
        public void bake(PreparedModel prepared, PlannerParam planner) {
            Graph graph = prepared.interpreter.snapshot();
            PlanFingerprint fingerprint = new PlanFingerprint(0, new byte[PlanFingerprint.SHA256_BYTES], "bench",
                    false, "model", false);
            plan = BakedPlan.decode(new BakedPlan(fingerprint, PlannerParam.byName(planner.planner).plan(graph))
                    .encode(), prepared.model);
        }
    }

    /**
     * The first set-up of a fresh process's session on a baked model, as {@code InterpreterRecipe} makes it: the
     * snapshot, the baked plan fitted to it and validated, the handover; no planning. As in
     * {@link #javaPlanAndAllocateTensors}, the interpreter snapshot was prepared earlier in the trial.
     */
    @Benchmark
    public Handover javaBakedPlanAndAllocateTensors(PreparedModel prepared, Baked baked, Fresh fresh) {
        Graph graph = prepared.interpreter.snapshot();
        Plan plan = new BakedPlanner(baked.plan).plan(graph);
        try (JavaArena arena = JavaArena.allocate(graph, BakedPlans.fitted(plan, graph))) {
            return fresh.interpreter.allocateTensors(arena);
        }
    }

    /** The first phase of {@link #javaPlanAndAllocateTensors}. */
    @Benchmark
    public Graph javaSnapshot(PreparedModel prepared, Fresh fresh) {
        return prepared.interpreter.snapshot();
    }

    /** The second phase: planning the snapshot ({@code PlanningBenchmark} times it back to back instead). */
    @Benchmark
    public Plan javaPlan(Planned planned, PlannerParam planner, Fresh fresh) {
        return PlannerParam.byName(planner.planner).plan(planned.graph);
    }

    /**
     * The third phase: validating the plan. As in the whole, the validator takes the lifetimes the planner
     * derived on this thread (here in the trial's set-up) rather than deriving them again.
     */
    @Benchmark
    public ValidatedPlan javaValidate(Planned planned, Fresh fresh) {
        return ValidatedPlan.of(planned.graph, planned.plan, JavaArena.ALIGNMENT);
    }
}
