package dev.tflitearena.bridge;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Planner;

import java.util.Arrays;

/**
 * Runs a model twice side by side, once on the native planner's arena and once on a Java plan handed over
 * through custom allocations, with the same seeded inputs, and compares every output byte for byte.
 */
public final class DifferentialRun {
    /** A byte that makes NaN of every float and is no valid small integer: stale data shows up. */
    public static final byte POISON = (byte) 0xFF;

    /**
     * @param planner            the Java plan's planner, or null to run a second native-planned interpreter
     * @param outputsIdentical   every output of every invoke equal, byte for byte
     * @param handover           what the Java plan took over; null for the native planner
     * @param reference          the native-planned interpreter's own arenas
     * @param candidate          the other interpreter's remaining native arenas after the invokes
     */
    public record Result(String planner, InterpreterSettings settings, int invokes, boolean outputsIdentical,
                         String firstDifference, Handover handover, MemoryInfo reference, MemoryInfo candidate) {
    }

    private DifferentialRun() {
    }

    /**
     * @param poison fill the Java arena's rw regions with {@link #POISON} before every invoke, so that a tensor
     *               read before it is written, or overwritten while live, changes the outputs
     */
    public static Result run(NativeModel model, InterpreterSettings settings, Planner planner, int invokes, long seed,
                             boolean poison) {
        if (invokes < 1) {
            throw new IllegalArgumentException("invokes must be at least 1, got " + invokes);
        }
        try (NativeInterpreter reference = NativeInterpreter.build(model, settings);
             NativeInterpreter candidate = NativeInterpreter.build(model, settings)) {
            reference.allocateTensors();
            if (planner == null) {
                candidate.allocateTensors();
                return compare(reference, candidate, null, null, "native", settings, invokes, seed);
            }
            Graph graph = reference.snapshot();
            try (JavaArena arena = JavaArena.allocate(graph, planner.plan(graph))) {
                Handover handover = candidate.allocateTensors(arena);
                return compare(reference, candidate, poison ? arena : null, handover, planner.name(), settings,
                        invokes, seed);
            }
        }
    }

    private static Result compare(NativeInterpreter reference, NativeInterpreter candidate, JavaArena poisoned,
                                  Handover handover, String planner, InterpreterSettings settings, int invokes,
                                  long seed) {
        String difference = null;
        for (int i = 0; i < invokes && difference == null; i++) {
            if (poisoned != null) {
                poisoned.poisonActivations(POISON);
            }
            for (int input = 0; input < reference.inputCount(); input++) {
                byte[] data = SeededInputs.of(reference.input(input), seed + i);
                reference.writeInput(input, data);
                candidate.writeInput(input, data);
            }
            reference.invoke();
            candidate.invoke();
            difference = firstDifference(reference, candidate, i);
        }
        return new Result(planner, settings, invokes, difference == null, difference, handover,
                reference.memoryInfo(), candidate.memoryInfo());
    }

    private static String firstDifference(NativeInterpreter reference, NativeInterpreter candidate, int invoke) {
        for (int output = 0; output < reference.outputCount(); output++) {
            byte[] expected = reference.readOutput(output);
            byte[] actual = candidate.readOutput(output);
            int at = Arrays.mismatch(expected, actual);
            if (at >= 0) {
                return "invoke " + invoke + ", output " + output + " differs first at byte " + at;
            }
        }
        return null;
    }
}
