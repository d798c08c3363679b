package dev.tflitearena.bridge.snapshot;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.bridge.snapshot.GraphSnapshot;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.nativelayer.NativeLayer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native layer's one-call snapshot reads every real and sample model exactly as the per-field path; on
 * TFLite 2.12, where the native layer is refused, the per-field path is the snapshot.
 */
class BulkSnapshotTest {
    private static final List<InterpreterSettings> SETTINGS = List.of(InterpreterSettings.DEFAULT,
            InterpreterSettings.DEFAULT.withXnnpack(true), InterpreterSettings.DEFAULT.withPreserveAllTensors(true));

    static Stream<Arguments> models() {
        Stream<Arguments> real = TestModels.runnable().stream().flatMap(model -> SETTINGS.stream()
                .map(settings -> Arguments.of(model.getFileName().toString(), settings)));
        Stream<Arguments> samples = SampleModels.all().keySet().stream().flatMap(name -> SETTINGS.stream()
                .map(settings -> Arguments.of(name, settings)));
        return Stream.concat(real, samples);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("models")
    void bulkSnapshotEqualsPerFieldSnapshot(String name, InterpreterSettings settings) {
        var sample = SampleModels.all().get(name);
        try (NativeModel model = sample != null ? NativeModel.fromBytes(sample.get(), name)
                : NativeModel.load(TestModels.named(name));
             NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            interpreter.allocateTensors();
            Graph perField = GraphSnapshot.of(interpreter.live(), settings.preserveAllTensors(),
                    settings.effectiveRelease(), false);
            if (NativeRelease.loaded().sharing() == TfliteRelease.Sharing.RESHAPE_OPS) {
                // TFLite 2.12's TfLiteRegistration has no inplace_operator: the layout check refuses the
                // native layer, the bulk call says why, and every snapshot reads field by field.
                var refusal = assertThrows(IllegalStateException.class, () -> GraphSnapshot.of(interpreter.live(),
                        settings.preserveAllTensors(), settings.effectiveRelease(), true));
                assertTrue(refusal.getMessage().contains("TfLiteRegistration"), refusal.getMessage());
                assertEquals(GraphJson.toJson(perField), GraphJson.toJson(GraphSnapshot.of(interpreter.live(),
                        settings.preserveAllTensors(), settings.effectiveRelease())));
                return;
            }
            assertTrue(NativeLayer.available(), NativeLayer::unavailableReason);
            Graph bulk = GraphSnapshot.of(interpreter.live(), settings.preserveAllTensors(),
                    settings.effectiveRelease(), true);
            assertEquals(GraphJson.toJson(perField), GraphJson.toJson(bulk));
            assertTrue(bulk.subgraphs().get(0).tensors().size() > 0);
        }
    }
}
