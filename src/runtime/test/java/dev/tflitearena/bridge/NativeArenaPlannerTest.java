package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanComparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The locator finds the interpreter's own ArenaPlanner, and refuses where there is none. */
class NativeArenaPlannerTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    static Stream<Arguments> benchmarkedModelsWithAndWithoutXnnpack() {
        return Stream.of("face_detection_short_range.tflite", "hand_landmark_full.tflite", "pose_landmark_lite.tflite")
                .flatMap(model -> Stream.of(
                        Arguments.of(TestModels.named(model), InterpreterSettings.DEFAULT),
                        Arguments.of(TestModels.named(model), InterpreterSettings.DEFAULT.withXnnpack(true))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("benchmarkedModelsWithAndWithoutXnnpack")
    void findsThePreparedSubgraphsPlannerWhoseReplanChangesNothing(Path model, InterpreterSettings settings) {
        try (NativeModel loaded = NativeModel.load(model);
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, settings)) {
            interpreter.allocateTensors();
            NativeArenaPlanner planner = NativeArenaPlanner.locate(interpreter, 0);
            assertEquals(interpreter.memoryInfo(), planner.allocInfo());
            assertTrue(planner.allocInfo().arenaBytes() > 0);

            byte[] before = invokeOnSeededInputs(interpreter);
            Plan planned = interpreter.nativePlan();
            planner.replan();
            assertTrue(PlanComparison.of(planned, interpreter.nativePlan()).identical());
            assertEquals(interpreter.memoryInfo(), planner.allocInfo());
            assertArrayEquals(before, invokeOnSeededInputs(interpreter));
        }
    }

    private static byte[] invokeOnSeededInputs(NativeInterpreter interpreter) {
        for (int i = 0; i < interpreter.inputCount(); i++) {
            interpreter.writeInput(i, SeededInputs.of(interpreter.input(i), 5));
        }
        interpreter.invoke();
        return interpreter.readOutput(0);
    }

    @Test
    void refusesASubgraphWithoutPlannerEvenBesideAPreparedOne() {
        try (NativeModel loaded = NativeModel.load(MODEL);
             NativeInterpreter prepared = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
             NativeInterpreter unprepared = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            prepared.allocateTensors();
            NativeException e = assertThrows(NativeException.class, () -> NativeArenaPlanner.locate(unprepared, 0));
            assertTrue(e.getMessage().contains("has no ArenaPlanner"), e.getMessage());
            assertTrue(e.getMessage().startsWith(MODEL.toString()), e.getMessage());
        }
    }

    @Test
    void refusesAMissingSubgraphAndAClosedInterpreter() {
        try (NativeModel loaded = NativeModel.load(MODEL)) {
            NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
            interpreter.allocateTensors();
            assertThrows(IllegalArgumentException.class, () -> NativeArenaPlanner.locate(interpreter, 1));
            NativeArenaPlanner planner = NativeArenaPlanner.locate(interpreter, 0);
            interpreter.close();
            assertThrows(IllegalStateException.class, planner::replan);
            assertThrows(IllegalStateException.class, () -> NativeArenaPlanner.locate(interpreter, 0));
        }
    }
}
