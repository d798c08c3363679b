package dev.tflitearena.session;

import dev.tflitearena.bridge.JavaArena;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.TensorAccess;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;

import java.util.Map;
import java.util.TreeMap;

/**
 * How to build a ready interpreter for one set of input shapes. A Java plan is made once, here, from a probe
 * interpreter prepared natively with those shapes, and every interpreter built after gets its own arena
 * laid out by it: interpreters running at the same time must not share activations.
 */
final class InterpreterRecipe {
    private final NativeModel model;
    private final SessionOptions options;
    private final Map<Integer, int[]> shapes;
    private final Graph graph;
    private final Plan plan;

    private InterpreterRecipe(NativeModel model, SessionOptions options, Map<Integer, int[]> shapes) {
        this.model = model;
        this.options = options;
        this.shapes = shapes;
        Planner planner = options.javaPlanner();
        if (planner == null) {
            this.graph = null;
            this.plan = null;
        } else {
            try (NativeInterpreter probe = resizedInterpreter()) {
                probe.allocateTensors();
                this.graph = probe.snapshot();
            }
            this.plan = planner.plan(graph);
        }
    }

    /** The model's own input shapes. */
    static InterpreterRecipe of(NativeModel model, SessionOptions options) {
        return new InterpreterRecipe(model, options, Map.of());
    }

    /** The same recipe with one input reshaped, and re-planned. */
    InterpreterRecipe resized(int input, int[] shape) {
        Map<Integer, int[]> next = new TreeMap<>(shapes);
        next.put(input, shape.clone());
        return new InterpreterRecipe(model, options, next);
    }

    /** An interpreter with its tensors allocated, on the Java plan if there is one. */
    NativeInterpreter build() {
        NativeInterpreter interpreter = resizedInterpreter();
        try {
            if (plan == null) {
                interpreter.allocateTensors();
            } else {
                // The interpreter keeps the arena alive; this handle is only needed for the handover.
                try (JavaArena arena = JavaArena.allocate(graph, plan)) {
                    interpreter.allocateTensors(arena);
                }
            }
            return interpreter;
        } catch (RuntimeException e) {
            interpreter.close();
            throw e;
        }
    }

    /**
     * The rw arena bytes of an interpreter this recipe built. With a Java plan TFLite's own arena holds only
     * what the plan left to it, so the plan's size is the one that counts.
     */
    long arenaBytes(NativeInterpreter built) {
        return plan == null ? built.memoryInfo().arenaBytes()
                : plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum();
    }

    private NativeInterpreter resizedInterpreter() {
        NativeInterpreter interpreter = NativeInterpreter.build(model, options.settings());
        try {
            shapes.forEach((input, shape) -> TensorAccess.resizeInput(interpreter, input, shape));
            return interpreter;
        } catch (RuntimeException e) {
            interpreter.close();
            throw e;
        }
    }
}
