package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.graph.Node;
import dev.tflitearena.nativelayer.OpProfiler;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpProfilerTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    @Test
    void anInvokeReportsEveryNodeOfTheExecutionPlanWithItsOp() {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
             OpProfiler profiler = new OpProfiler(1024)) {
            assertFalse(interpreter.hasProfiler(), "an interpreter has no profiler unless given one");
            interpreter.setProfiler(profiler);
            assertTrue(interpreter.hasProfiler());
            interpreter.allocateTensors();
            assertEquals(0, ((String[]) profiler.events()[1]).length, "allocating invokes no node");
            interpreter.invoke();

            int[] plan = NativeTensors.ints(interpreter.live().subgraph(0).execution_plan());
            List<Node> nodes = interpreter.snapshot().subgraphs().get(0).nodes();
            Object[] events = profiler.events();
            long[] numbers = (long[]) events[0];
            String[] ops = (String[]) events[1];
            assertEquals(plan.length, ops.length);
            for (int k = 0; k < plan.length; k++) {
                assertEquals(plan[k], numbers[3 * k], "node at " + k);
                assertEquals(0, numbers[3 * k + 1], "subgraph at " + k);
                assertTrue(numbers[3 * k + 2] > 0, "nanoseconds at " + k + ": " + numbers[3 * k + 2]);
                assertEquals(nodes.get(k).op(), ops[k], "op at " + k);
            }
            assertEquals(0, numbers[numbers.length - 1], "none dropped");

            profiler.clear();
            interpreter.setProfiler(null);
            assertFalse(interpreter.hasProfiler());
            interpreter.invoke();
            assertEquals(0, ((String[]) profiler.events()[1]).length, "an interpreter without it reports nothing");
        }
    }

    @Test
    void invocationsPastItsRoomAreCountedNotKept() {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
             OpProfiler profiler = new OpProfiler(10)) {
            interpreter.setProfiler(profiler);
            interpreter.allocateTensors();
            interpreter.invoke();
            Object[] events = profiler.events();
            long[] numbers = (long[]) events[0];
            int planned = NativeTensors.ints(interpreter.live().subgraph(0).execution_plan()).length;
            assertEquals(10, ((String[]) events[1]).length);
            assertEquals(planned - 10, numbers[numbers.length - 1]);
        }
    }
}
