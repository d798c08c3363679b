package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.MemoryInfo;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.OrderedProbe;
import dev.tflitearena.bridge.handover.Handover;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;

import java.util.Arrays;

/**
 * Runs a model twice side by side, once on the native planner's arena and once on a Java plan handed over
 * through custom allocations, with the same seeded inputs, and compares every output byte for byte.
 */
public final class DifferentialRun {
    /**
     * @param planner            the Java plan's planner, or null to run a second native-planned interpreter
     * @param invokes            the invokes run: the first difference ends the run
     * @param outputsIdentical   every output of every invoke equal, byte for byte
     * @param handover           what the Java plan took over; null for the native planner
     * @param reference          the native-planned interpreter's own arenas
     * @param candidate          the other interpreter's remaining native arenas after the invokes
     * @param outputs            the native-planned interpreter's outputs of the last invoke, what a dump of
     *                           the same run must reproduce; shared, not copied: treat as read-only
     * @param order              the node order the other interpreter ran in; null when it ran the model's
     */
    public record Result(String planner, InterpreterSettings settings, int invokes, boolean outputsIdentical,
                         String firstDifference, Handover handover, MemoryInfo reference, MemoryInfo candidate,
                         byte[][] outputs, MemoryOrder.Result order) {
    }

    private DifferentialRun() {
    }

    /**
     * @param poison fill the Java arena's rw regions with {@link JavaArena#POISON} before every invoke, so that a tensor
     *               read before it is written, or overwritten while live, changes the outputs
     */
    public static Result run(NativeModel model, InterpreterSettings settings, Planner planner, int invokes, long seed,
                             boolean poison) {
        return run(model, settings, planner, Order.MODEL, invokes, seed, poison, false);
    }

    /**
     * @param order         with {@link Order#MEMORY}, the other interpreter runs the primary subgraph's nodes in
     *                      the order {@link MemoryOrder} picks, and its plan is made for that order; the
     *                      native-planned one runs the model's order, so identical outputs show the order changes none
     * @param releaseInputs plan with graph inputs released after their last consumer
     *                      ({@link Graph.Options#releaseInputs()}); the seeded inputs are written before every
     *                      invoke, as the rule asks. Needs a Java planner.
     */
    public static Result run(NativeModel model, InterpreterSettings settings, Planner planner, Order order,
                             int invokes, long seed, boolean poison, boolean releaseInputs) {
        if (releaseInputs && planner == null) {
            throw new IllegalArgumentException("releasing inputs needs a Java planner: TFLite's own planner keeps "
                    + "every graph input to the end of a run");
        }
        if (invokes < 1) {
            throw new IllegalArgumentException("invokes must be at least 1, got " + invokes);
        }
        try (NativeInterpreter reference = NativeInterpreter.build(model, settings);
             NativeInterpreter candidate = NativeInterpreter.build(model, settings)) {
            reference.allocateTensors();
            Graph graph = planner == null && order == Order.MODEL ? null
                    : reference.snapshot().withReleaseInputs(releaseInputs);
            MemoryOrder.Result ordered = order == Order.MEMORY ? MemoryOrder.of(graph) : null;
            if (ordered != null) {
                try (NativeInterpreter probe = NativeInterpreter.build(model, settings)) {
                    // The snapshot keeps the rule the order was chosen under.
                    graph = OrderedProbe.snapshot(probe, ordered);
                }
                candidate.setNodeOrder(ordered.order());
            }
            if (planner == null) {
                candidate.allocateTensors();
                return compare(reference, candidate, null, null, "native", settings, invokes, seed, ordered);
            }
            try (JavaArena arena = JavaArena.allocate(graph, planner.plan(graph))) {
                Handover handover = candidate.allocateTensors(arena);
                return compare(reference, candidate, poison ? arena : null, handover, planner.name(), settings,
                        invokes, seed, ordered);
            }
        }
    }

    private static Result compare(NativeInterpreter reference, NativeInterpreter candidate, JavaArena poisoned,
                                  Handover handover, String planner, InterpreterSettings settings, int invokes,
                                  long seed, MemoryOrder.Result order) {
        String difference = null;
        byte[][] outputs = new byte[0][];
        int done = 0;
        while (done < invokes && difference == null) {
            int i = done++;
            if (poisoned != null) {
                poisoned.poisonActivations(JavaArena.POISON);
            }
            SeededInputs.feed(seed + i, reference, candidate);
            reference.invoke();
            candidate.invoke();
            outputs = readOutputs(reference);
            difference = firstDifference(outputs, candidate, i);
        }
        return new Result(planner, settings, done, difference == null, difference, handover,
                reference.memoryInfo(), candidate.memoryInfo(), outputs, order);
    }

    private static byte[][] readOutputs(NativeInterpreter interpreter) {
        byte[][] outputs = new byte[interpreter.outputCount()][];
        for (int output = 0; output < outputs.length; output++) {
            outputs[output] = interpreter.readOutput(output);
        }
        return outputs;
    }

    private static String firstDifference(byte[][] expected, NativeInterpreter candidate, int invoke) {
        for (int output = 0; output < expected.length; output++) {
            int at = Arrays.mismatch(expected[output], candidate.readOutput(output));
            if (at >= 0) {
                return "invoke " + invoke + ", output " + output + " differs first at byte " + at;
            }
        }
        return null;
    }
}
