package dev.tflitearena.bridge.check;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A plan that reuses the graph inputs' bytes after their last consumer, on the native interpreter. */
class ReleaseInputsRunTest {
    static List<Path> runnable() {
        return TestModels.runnable();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runnable")
    void aPoisonedRunWithInputsReleasedGivesTheNativeOutputsInNoMoreArena(Path model) {
        try (NativeModel loaded = NativeModel.load(model)) {
            DifferentialRun.Result r = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT, new TflitePlanner(),
                    Order.MODEL, 2, 5, true, true);
            assertTrue(r.outputsIdentical(), r::firstDifference);
            assertTrue(r.handover().javaArenaBytes() <= r.reference().arenaBytes(),
                    r.handover().javaArenaBytes() + " > native " + r.reference().arenaBytes());
        }
    }

    @Test
    void withXnnpackTheOutputsAreTheNativeOnesToo() {
        try (NativeModel loaded = NativeModel.load(TestModels.named("hand_landmark_full.tflite"))) {
            DifferentialRun.Result r = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT.withXnnpack(true),
                    new TflitePlanner(), Order.MODEL, 2, 5, true, true);
            assertTrue(r.outputsIdentical(), r::firstDifference);
        }
    }

    @Test
    void theBoundFallsOnARealModel() {
        try (NativeModel loaded = NativeModel.load(TestModels.named("hand_landmark_full.tflite"));
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            var graph = interpreter.snapshot();
            long kept = LowerBound.of(graph.subgraphs().get(0), graph.options());
            long released = LowerBound.of(graph.subgraphs().get(0), graph.options().withReleaseInputs(true));
            assertTrue(released < kept, released + " >= " + kept);
        }
    }

    @Test
    void theNativePlannerCannotReleaseInputs() {
        try (NativeModel loaded = NativeModel.load(TestModels.named("hand_landmark_full.tflite"))) {
            var e = assertThrows(IllegalArgumentException.class,
                    () -> DifferentialRun.run(loaded, InterpreterSettings.DEFAULT, null, Order.MODEL, 1, 1, true, true));
            assertTrue(e.getMessage().contains("needs a Java planner"), e.getMessage());
        }
    }
}
