package dev.tflitearena.bridge;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.tflite.TflitePlanner;

/**
 * The Java 'tflite' planner against the native ArenaPlanner on one prepared interpreter. A graph with
 * dynamic-shape ops is only fully planned once it has run, so it is invoked once, on seeded inputs, first.
 */
public final class CrossCheck {
    /** @param invokes how many invokes ran before the plans were read: 0, or 1 for a dynamic graph */
    public record Result(Graph graph, PlanComparison comparison, int invokes) {
    }

    private CrossCheck() {
    }

    public static Result run(NativeModel model, InterpreterSettings settings, long seed) {
        try (NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            interpreter.allocateTensors();
            Graph graph = interpreter.snapshot();
            int invokes = 0;
            if (TflitePlanner.isDynamic(graph)) {
                for (int input = 0; input < interpreter.inputCount(); input++) {
                    interpreter.writeInput(input, SeededInputs.of(interpreter.input(input), seed));
                }
                interpreter.invoke();
                invokes = 1;
                graph = interpreter.snapshot();
            }
            PlanComparison comparison = PlanComparison.of(interpreter.nativePlan(), new TflitePlanner().plan(graph));
            return new Result(graph, comparison, invokes);
        }
    }
}
