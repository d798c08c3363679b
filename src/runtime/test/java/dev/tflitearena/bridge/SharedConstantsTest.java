package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interpreters of one model share the persistent tensors kernels derive from its constants: proved equal,
 * outputs unchanged, the region never written after it is filled, and alive while any interpreter uses it.
 */
class SharedConstantsTest {
    /** An fp16 model: DEQUANTIZE of every constant filter, and CONV_2D's transposed filters, all persistent. */
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");
    private static final int INVOKES = 5;

    private static NativeInterpreter invokedOnce(NativeModel model, InterpreterSettings settings, long seed) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, settings);
        interpreter.allocateTensors();
        SeededInputs.feed(seed, interpreter);
        interpreter.invoke();
        return interpreter;
    }

    private static SharedConstants prove(NativeModel model, InterpreterSettings settings) {
        try (NativeInterpreter first = NativeInterpreter.build(model, settings);
             NativeInterpreter second = NativeInterpreter.build(model, settings)) {
            first.allocateTensors();
            second.allocateTensors();
            return SharedConstants.prove(first, second);
        }
    }

    static byte[][] outputs(NativeInterpreter interpreter) {
        byte[][] outputs = new byte[interpreter.outputCount()][];
        for (int o = 0; o < outputs.length; o++) {
            outputs[o] = interpreter.readOutput(o);
        }
        return outputs;
    }

    @Test
    void everyPersistentTensorOfTheModelIsNamedByARuleAndProvedShared() {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter probe = invokedOnce(model, InterpreterSettings.DEFAULT, 1);
             SharedConstants shared = prove(model, InterpreterSettings.DEFAULT)) {
            Graph graph = probe.snapshot();
            Set<Integer> persistent = graph.subgraphs().get(0).tensors().stream()
                    .filter(t -> t.allocation() == Allocation.ARENA_RW_PERSISTENT).map(Tensor::index)
                    .collect(Collectors.toSet());
            Map<String, Long> byRule = shared.entries().stream().collect(Collectors.groupingBy(
                    SharedConstants.Entry::rule, Collectors.counting()));
            assertEquals(persistent, shared.entries().stream().map(SharedConstants.Entry::tensor)
                    .collect(Collectors.toSet()));
            assertEquals(Map.of(ConstantDerived.DEQUANTIZE, 74L, ConstantDerived.CONV_HWCN, 21L), byRule);
            assertTrue(shared.unproved().isEmpty(), shared.unproved()::toString);
            // Both align every tensor to 64 bytes, in another order: the padding differs a little.
            long padding = 64L * shared.entries().size();
            assertTrue(Math.abs(shared.size() - probe.memoryInfo().persistentBytes()) < padding, shared.size()
                    + " bytes shared, the persistent arena " + probe.memoryInfo().persistentBytes());
        }
    }

    @Test
    void withOneThreadConv2dKeepsNoTransposedFilter() {
        try (NativeModel model = NativeModel.load(MODEL);
             SharedConstants shared = prove(model, new InterpreterSettings(false, false, 1, null))) {
            assertTrue(shared.entries().stream().noneMatch(e -> e.rule().equals(ConstantDerived.CONV_HWCN)));
            assertEquals(74, shared.entries().size());
        }
    }

    @ParameterizedTest(name = "Java plan: {0}")
    @ValueSource(booleans = {false, true})
    void sharingInterpretersGiveTheUnsharedOutputsAndNeverWriteTheRegion(boolean javaPlan) {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter reference = invokedOnce(model, InterpreterSettings.DEFAULT, 1);
             SharedConstants shared = prove(model, InterpreterSettings.DEFAULT)) {
            byte[] filled = shared.copyOfRegion();
            Graph graph = shared.withoutSharedTensors(reference.snapshot());
            Plan plan = new TflitePlanner().plan(graph);
            NativeInterpreter[] sharing = new NativeInterpreter[2];
            JavaArena[] arenas = new JavaArena[sharing.length];
            for (int i = 0; i < sharing.length; i++) {
                sharing[i] = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
                arenas[i] = javaPlan ? JavaArena.allocate(graph, plan) : null;
                Handover handover = sharing[i].allocateTensors(arenas[i], shared);
                assertEquals(0, handover.nativePersistentBytesLeft() - NativeRelease.loaded().arenaBufferPadding(),
                        "every persistent tensor is shared");
                SeededInputs.feed(9, sharing[i]);
                sharing[i].invoke();
                sharing[i].shareConstants();
                assertEquals(shared.size(), sharing[i].sharedBytes());
            }
            for (int k = 0; k < INVOKES; k++) {
                SeededInputs.feed(10 + k, reference);
                reference.invoke();
                for (int i = 0; i < sharing.length; i++) {
                    if (arenas[i] != null) {
                        arenas[i].poisonActivations(DifferentialRun.POISON);
                    }
                    SeededInputs.feed(10 + k, sharing[i]);
                    sharing[i].invoke();
                    assertTrue(Arrays.deepEquals(outputs(reference), outputs(sharing[i])), "invoke " + k);
                }
            }
            assertArrayEquals(filled, shared.copyOfRegion(), "the region was written after it was filled");
            for (int i = 0; i < sharing.length; i++) {
                sharing[i].close();
                if (arenas[i] != null) {
                    arenas[i].close();
                }
            }
        }
    }

    @Test
    void theRegionOutlivesWhoeverClosesFirst() {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter reference = invokedOnce(model, InterpreterSettings.DEFAULT, 3)) {
            byte[][] expected = outputs(reference);
            SharedConstants shared = prove(model, InterpreterSettings.DEFAULT);
            NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
            interpreter.allocateTensors(null, shared);
            shared.close();
            assertThrows(IllegalStateException.class, shared::copyOfRegion);
            assertThrows(IllegalStateException.class, () -> interpreter.shareConstants(), "not invoked yet");
            SeededInputs.feed(3, interpreter);
            interpreter.invoke();
            interpreter.shareConstants();
            assertThrows(IllegalStateException.class, interpreter::shareConstants, "moved already");
            for (int k = 0; k < INVOKES; k++) {
                SeededInputs.feed(3, interpreter);
                interpreter.invoke();
                assertTrue(Arrays.deepEquals(expected, outputs(interpreter)), "invoke " + k);
            }
            interpreter.close();
            // A closed region takes no new interpreter.
            try (NativeInterpreter late = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
                assertThrows(IllegalStateException.class, () -> late.allocateTensors(null, shared));
            }
        }
    }

    @Test
    void aTensorWhoseBytesDifferFromTheRegionIsRefused() {
        try (NativeModel model = NativeModel.load(MODEL);
             SharedConstants shared = prove(model, InterpreterSettings.DEFAULT);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors(null, shared);
            SeededInputs.feed(1, interpreter);
            interpreter.invoke();
            SharedConstants.Entry first = shared.entries().get(0);
            org.bytedeco.javacpp.Pointer.memset(interpreter.live().tensor(first.tensor()).data().raw(), 0x55, 4);
            NativeException refusal = assertThrows(NativeException.class, interpreter::shareConstants);
            assertTrue(refusal.getMessage().contains("tensor " + first.tensor()), refusal.getMessage());
        }
    }
}
