package dev.tflitearena.bridge.check;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Java 'tflite' planner against the native ArenaPlanner on every real model. */
class RealModelsTest {

    static Stream<Arguments> runnableModelsAndSettings() {
        return TestModels.runnable().stream().flatMap(model -> Stream.of(
                Arguments.of(model, InterpreterSettings.DEFAULT),
                Arguments.of(model, InterpreterSettings.DEFAULT.withPreserveAllTensors(true)),
                Arguments.of(model, InterpreterSettings.DEFAULT.withXnnpack(true)),
                Arguments.of(model, InterpreterSettings.DEFAULT.withXnnpack(true).withPreserveAllTensors(true))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runnableModelsAndSettings")
    void javaPlanEqualsNativePlanTensorByTensor(Path model, InterpreterSettings settings) {
        try (NativeModel loaded = NativeModel.load(model)) {
            CrossCheck.Result result = CrossCheck.run(loaded, settings, 1);
            PlanComparison comparison = result.comparison();
            assertTrue(comparison.identical(), () -> model + " differs: " + comparison.subgraphs());
            assertEquals(0, result.invokes(), "the real models are static");
            assertTrue(comparison.subgraphs().get(0).tensorsCompared() > 100);
            assertTrue(comparison.expected().subgraphs().get(0).arenaBytes() > 0);
        }
    }

    @Test
    void aSnapshotSurvivesTheGraphJsonRoundTripAndPlansTheSame() {
        Path model = TestModels.named("pose_landmark_lite.tflite");
        try (NativeModel loaded = NativeModel.load(model);
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            Graph graph = interpreter.snapshot();
            String json = GraphJson.toJson(graph);
            Graph read = GraphJson.parse(json);
            assertEquals(json, GraphJson.toJson(read));
            assertTrue(PlanComparison.of(new TflitePlanner().plan(graph), new TflitePlanner().plan(read)).identical());
            assertTrue(graph.subgraphs().get(0).nodes().stream().anyMatch(n -> n.temporaries().length > 0),
                    "the snapshot holds the temporaries kernels add in prepare");
        }
    }

    @Test
    void snapshotRecordsTheNativeGraph() {
        try (NativeModel loaded = NativeModel.load(TestModels.named("face_detection_short_range.tflite"));
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            var subgraph = interpreter.snapshot().subgraphs().get(0);
            assertEquals(1, subgraph.inputs().length);
            assertEquals(2, subgraph.outputs().length);
            assertEquals("FLOAT32", subgraph.tensor(subgraph.inputs()[0]).type());
            assertEquals(1 * 128 * 128 * 3 * 4, subgraph.tensor(subgraph.inputs()[0]).bytes());
            assertTrue(subgraph.nodes().stream().anyMatch(n -> n.op().equals("CONV_2D")));
        }
    }

    @Test
    void aModelNeedingAnUnknownCustomOpIsRefusedByName() {
        for (String name : TestModels.NEED_CUSTOM_OPS) {
            try (NativeModel loaded = NativeModel.load(TestModels.named(name))) {
                NativeException e = assertThrows(NativeException.class,
                        () -> NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT));
                assertTrue(e.getMessage().contains("'Convolution2DTransposeBias'"), e.getMessage());
                assertTrue(e.getMessage().contains(name), e.getMessage());
            }
        }
    }
}
