package dev.tflitearena.bridge.sharing;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.ConstantProof;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.handover.Handover;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.bridge.sharing.ConstantDerived;
import dev.tflitearena.bridge.sharing.SharedConstants;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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
    /** More than one thread, so that CONV_2D transposes its filters, and enough to split the kernels' work. */
    private static final InterpreterSettings EIGHT_THREADS = new InterpreterSettings(false, false, 8, null);

    /** A model, the settings to run it with, and how many tensors each rule shares then. */
    record Case(String name, Supplier<NativeModel> loader, InterpreterSettings settings, Map<String, Long> rules) {
        NativeModel load() {
            return loader.get();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> models() {
        return Stream.of(
                new Case("face_detection_short_range", () -> NativeModel.load(MODEL), InterpreterSettings.DEFAULT,
                        Map.of(ConstantDerived.DEQUANTIZE, 74L, ConstantDerived.CONV_HWCN, 21L)),
                // The fp16 filter's DEQUANTIZE reads a DENSIFY output, no constant: its output is an activation,
                // which CONV_2D does not transpose (dequantize.cc Prepare, conv.cc supports_multithreaded_kernel).
                sample("sparse_convnet", Map.of(ConstantDerived.DENSIFY, 2L, ConstantDerived.CONV_HWCN, 1L,
                        ConstantDerived.FC_ROW_SUMS, 1L, ConstantDerived.FC_LEDGER, 1L)),
                sample("hybrid_ops", Map.of(ConstantDerived.FC_ROW_SUMS, 1L, ConstantDerived.CONV_ROW_SUMS, 1L,
                        ConstantDerived.BMM_RHS, 1L, ConstantDerived.BMM_ROW_SUMS, 1L,
                        ConstantDerived.SVDF_WEIGHTS_TIME, 1L, ConstantDerived.SVDF_ROW_SUMS, 1L,
                        "UNIDIRECTIONAL_SEQUENCE_LSTM row_sums", 1L)));
    }

    private static Case sample(String name, Map<String, Long> rules) {
        return new Case(name, () -> NativeModel.fromBytes(SampleModels.all().get(name).get(), name), EIGHT_THREADS,
                rules);
    }

    static Stream<Arguments> modelsWithEitherPlan() {
        return models().flatMap(c -> Stream.of(Arguments.of(c, false), Arguments.of(c, true)));
    }

    private static NativeInterpreter invokedOnce(NativeModel model, InterpreterSettings settings, long seed) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, settings);
        interpreter.allocateTensors();
        SeededInputs.feed(seed, interpreter);
        interpreter.invoke();
        return interpreter;
    }

    static byte[][] outputs(NativeInterpreter interpreter) {
        byte[][] outputs = new byte[interpreter.outputCount()][];
        for (int o = 0; o < outputs.length; o++) {
            outputs[o] = interpreter.readOutput(o);
        }
        return outputs;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void everyPersistentTensorButTheVariablesIsNamedByARuleAndProvedShared(Case c) {
        try (NativeModel model = c.load();
             NativeInterpreter probe = invokedOnce(model, c.settings(), 1);
             SharedConstants shared = ConstantProof.prove(model, c.settings())) {
            List<Tensor> persistent = probe.snapshot().subgraphs().get(0).tensors().stream()
                    .filter(t -> t.allocation() == Allocation.ARENA_RW_PERSISTENT).toList();
            Map<String, Long> byRule = shared.entries().stream().collect(Collectors.groupingBy(
                    SharedConstants.Entry::rule, Collectors.counting()));
            assertEquals(c.rules(), byRule);
            assertEquals(persistent.stream().filter(t -> !t.variable()).map(Tensor::index).collect(Collectors.toSet()),
                    shared.entries().stream().map(SharedConstants.Entry::tensor).collect(Collectors.toSet()));
            assertTrue(shared.unproved().isEmpty(), shared.unproved()::toString);
            // Both align every tensor to 64 bytes, in another order: the padding differs a little.
            long padding = 64L * persistent.size();
            long constants = probe.memoryInfo().persistentBytes() - variableBytes(persistent);
            assertTrue(Math.abs(shared.size() - constants) < padding, shared.size()
                    + " bytes shared, the persistent arena " + constants + " without the variables");
        }
    }

    @Test
    void withOneThreadConv2dKeepsNoTransposedFilter() {
        try (NativeModel model = NativeModel.load(MODEL);
             SharedConstants shared = ConstantProof.prove(model, new InterpreterSettings(false, false, 1, null))) {
            assertTrue(shared.entries().stream().noneMatch(e -> e.rule().equals(ConstantDerived.CONV_HWCN)));
            assertEquals(74, shared.entries().size());
        }
    }

    @ParameterizedTest(name = "{0}, Java plan: {1}")
    @MethodSource("modelsWithEitherPlan")
    void sharingInterpretersGiveTheUnsharedOutputsAndNeverWriteTheRegion(Case c, boolean javaPlan) {
        try (NativeModel model = c.load();
             NativeInterpreter reference = invokedOnce(model, c.settings(), 1);
             SharedConstants shared = ConstantProof.prove(model, c.settings())) {
            byte[] filled = shared.copyOfRegion();
            Graph graph = shared.withoutSharedTensors(reference.snapshot());
            Plan plan = new TflitePlanner().plan(graph);
            // What TFLite's own plan keeps in its persistent arena: the variables, whose state is no constant.
            long privateBytes = javaPlan ? 0 : variableBytes(graph.subgraphs().get(0).tensors());
            NativeInterpreter[] sharing = new NativeInterpreter[2];
            JavaArena[] arenas = new JavaArena[sharing.length];
            for (int i = 0; i < sharing.length; i++) {
                sharing[i] = NativeInterpreter.build(model, c.settings());
                arenas[i] = javaPlan ? JavaArena.allocate(graph, plan) : null;
                Handover handover = sharing[i].allocateTensors(arenas[i], shared);
                assertEquals(privateBytes, handover.nativePersistentBytesLeft()
                        - NativeRelease.loaded().arenaBufferPadding(), "every other persistent tensor is shared");
                // The reference's first inputs: variables then hold the same state in every interpreter.
                SeededInputs.feed(1, sharing[i]);
                sharing[i].invoke();
                sharing[i].shareConstants();
                assertEquals(shared.size(), sharing[i].sharedBytes());
            }
            for (int k = 0; k < INVOKES; k++) {
                SeededInputs.feed(10 + k, reference);
                reference.invoke();
                for (int i = 0; i < sharing.length; i++) {
                    if (arenas[i] != null) {
                        arenas[i].poisonActivations(JavaArena.POISON);
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

    private static long variableBytes(List<Tensor> tensors) {
        return tensors.stream().filter(Tensor::variable).mapToLong(t -> JavaArena.alignUp(t.bytes())).sum();
    }

    @Test
    void theRegionOutlivesWhoeverClosesFirst() {
        try (NativeModel model = NativeModel.load(MODEL);
             NativeInterpreter reference = invokedOnce(model, InterpreterSettings.DEFAULT, 3)) {
            byte[][] expected = outputs(reference);
            SharedConstants shared = ConstantProof.prove(model, InterpreterSettings.DEFAULT);
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
             SharedConstants shared = ConstantProof.prove(model, InterpreterSettings.DEFAULT);
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
