package dev.tflitearena.bridge.check;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real model run in the memory order gives the outputs of its own order. */
class MemoryOrderRunTest {
    /** The real model whose memory order differs from its own: it has parallel branches that matter. */
    private static final Path MODEL = TestModels.named("pose_landmark_lite.tflite");

    @Test
    void aJavaPlanInTheMemoryOrderGivesIdenticalOutputsInLessMemory() {
        try (NativeModel loaded = NativeModel.load(MODEL)) {
            DifferentialRun.Result r = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT, new TflitePlanner(),
                    Order.MEMORY, 2, 1, true, false);
            assertTrue(r.outputsIdentical(), r.firstDifference());
            MemoryOrder.Result order = r.order();
            assertTrue(order.reordered());
            assertEquals(MemoryOrder.EXACT, order.search());
            assertTrue(order.boundAfter() < order.boundBefore(), order.summary());
            assertTrue(r.handover().javaArenaBytes() < r.reference().arenaBytes(),
                    r.handover().javaArenaBytes() + " against the model order's " + r.reference().arenaBytes());
        }
    }

    @Test
    void theMemoryOrderWithInputsReleasedGivesIdenticalOutputsInLessMemoryThanEitherRule() {
        try (NativeModel loaded = NativeModel.load(MODEL)) {
            DifferentialRun.Result both = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT,
                    new TflitePlanner(), Order.MEMORY, 2, 1, true, true);
            assertTrue(both.outputsIdentical(), both.firstDifference());
            DifferentialRun.Result released = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT,
                    new TflitePlanner(), Order.MODEL, 1, 1, false, true);
            assertTrue(both.handover().javaArenaBytes() < released.handover().javaArenaBytes(),
                    both.handover().javaArenaBytes() + " against " + released.handover().javaArenaBytes());
            assertTrue(both.order().boundAfter() < both.order().boundBefore(), both.order().summary());
        }
    }

    @Test
    void theNativePlannerInTheMemoryOrderGivesIdenticalOutputs() {
        try (NativeModel loaded = NativeModel.load(MODEL)) {
            DifferentialRun.Result r = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT, null, Order.MEMORY, 1,
                    3, false, false);
            assertTrue(r.outputsIdentical(), r.firstDifference());
            assertTrue(r.order().reordered());
        }
    }

    @Test
    void theOrderIsSetOnceBeforeAllocatingOnTfliteKernelsAlone() {
        try (NativeModel loaded = NativeModel.load(MODEL);
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
             NativeInterpreter xnnpack = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT.withXnnpack(true))) {
            int[] own = new int[(int) interpreter.live().subgraph(0).nodes_size()];
            for (int k = 0; k < own.length; k++) {
                own[k] = k;
            }
            int[] duplicate = own.clone();
            duplicate[1] = 0;
            assertThrows(IllegalArgumentException.class, () -> interpreter.setNodeOrder(duplicate));
            assertThrows(IllegalArgumentException.class, () -> interpreter.setNodeOrder(new int[]{0}));
            assertThrows(IllegalArgumentException.class, () -> xnnpack.setNodeOrder(own));
            interpreter.allocateTensors();
            assertThrows(IllegalStateException.class, () -> interpreter.setNodeOrder(own));
        }
    }
}
