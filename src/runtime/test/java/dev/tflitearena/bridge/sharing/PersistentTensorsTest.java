package dev.tflitearena.bridge.sharing;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.ConstantProof;
import dev.tflitearena.bridge.sharing.PersistentTensors;
import dev.tflitearena.bridge.sharing.SharedConstants;
import dev.tflitearena.graph.Graph;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every persistent tensor an interpreter owns is named, with why it is not shared; none is unexplained. */
class PersistentTensorsTest {
    /** What the samples keep to themselves, by kind: their state, and what the sharing rules leave out. */
    private static final Map<String, Map<PersistentTensors.Kind, Integer>> EXPECTED = Map.of(
            "svdf_state", Map.of(PersistentTensors.Kind.STATE, 2),
            "lstm_state", Map.of(PersistentTensors.Kind.STATE, 2),
            "hybrid_ops", Map.of(PersistentTensors.Kind.STATE, 3),
            // VAR_HANDLE's ids in the main subgraph and in CALL_ONCE's, which the first invoke prepares.
            "resource_variables", Map.of(PersistentTensors.Kind.STATE, 4),
            // A WHILE body's hwcn_weights: its inputs are lent, or the graph is dynamic (ConstantDerived.whyNotShared).
            "while_loop", Map.of(PersistentTensors.Kind.NOT_SHARED, 1),
            "if_while_nested", Map.of(PersistentTensors.Kind.NOT_SHARED, 1),
            "while_after_where", Map.of(PersistentTensors.Kind.NOT_SHARED, 1));

    static Stream<Arguments> models() {
        return TestModels.runnableAndSamples();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void everyOwnedPersistentTensorIsExplained(String name, byte[] bytes) {
        try (NativeModel model = NativeModel.fromBytes(bytes, name);
             NativeInterpreter first = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
             NativeInterpreter second = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            first.allocateTensors();
            second.allocateTensors();
            try (SharedConstants shared = ConstantProof.prove(first, second)) {
                // After the proof's invoke: what TFLite prepares during invoke is marked too.
                Graph graph = first.snapshot();
                List<PersistentTensors.Owned> owned = PersistentTensors.of(graph, shared, true);
                assertTrue(owned.stream().noneMatch(o -> o.kind() == PersistentTensors.Kind.UNEXPLAINED),
                        () -> name + ": " + owned);
                Map<PersistentTensors.Kind, Integer> byKind = owned.stream().collect(Collectors.groupingBy(
                        PersistentTensors.Owned::kind, Collectors.summingInt(o -> 1)));
                assertEquals(EXPECTED.getOrDefault(name, Map.of()), byKind, () -> name + ": " + owned);
                // Without sharing, what the region would hold is shareable, and nothing else changes kind.
                List<PersistentTensors.Owned> alone = PersistentTensors.of(graph, null, false);
                assertEquals(owned.size() + shared.entries().size(), alone.size());
            }
        }
    }
}
