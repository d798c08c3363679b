package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The models built in code, each cross-checked against the native planner and run on a Java plan, in the
 * three modes of {@code compare}: plain, with XNNPACK, with preserve_all_tensors.
 */
class SampleModelsTest {
    /**
     * Samples that leave persistent bytes in TFLite's arena, and why (docs/design.md says so too): CALL_ONCE
     * prepares its init subgraph inside the first invoke, and VAR_HANDLE makes the resource handles there
     * persistent, which the snapshot a plan is made from saw dynamic. With XNNPACK nothing is left.
     */
    private static final Map<String, String> PERSISTENT_LEFT = Map.of(
            "resource_variables", "the init subgraph's resource handles");
    /**
     * Samples whose outputs under XNNPACK depend on memory no kernel writes, so that they differ with the
     * arena's former contents, and why. TFLite 2.20's XNNPACK delegate unpacks the sparse fp16 filter of
     * sparse_convnet itself, taking its DENSIFY, but leaves the DEQUANTIZE after it and that DEQUANTIZE's
     * CONV_2D to TFLite (xnnpack_delegate.cc, PrepareOpsToDelegate, drops a non-delegated node's producers from
     * the unpacking, not its producers' producers): the DENSIFY output the DEQUANTIZE reads is never written.
     */
    private static final Map<String, String> XNNPACK_READS_UNWRITTEN = Map.of(
            "sparse_convnet", "a DENSIFY output XNNPACK took over and TFLite's DEQUANTIZE reads");

    static Stream<Arguments> samplesInEveryMode() {
        return SampleModels.all().entrySet().stream().flatMap(e -> Stream.of(
                Arguments.of(e.getKey(), e.getValue(), InterpreterSettings.DEFAULT),
                Arguments.of(e.getKey(), e.getValue(), InterpreterSettings.DEFAULT.withXnnpack(true)),
                Arguments.of(e.getKey(), e.getValue(), InterpreterSettings.DEFAULT.withPreserveAllTensors(true))));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("samplesInEveryMode")
    void javaPlanEqualsNativePlanAndDrivesTheRuntime(String name, Supplier<byte[]> model, InterpreterSettings settings) {
        try (NativeModel loaded = NativeModel.fromBytes(model.get(), name)) {
            CrossCheck.Result check = CrossCheck.run(loaded, settings, 1);
            assertTrue(check.comparison().identical(), () -> name + " differs: " + check.comparison().subgraphs());
            if (TflitePlanner.hasComputedShapeReshape(check.graph())) {
                NativeException refusal = assertThrows(NativeException.class,
                        () -> DifferentialRun.run(loaded, settings, new TflitePlanner(), 2, 1, true));
                assertTrue(refusal.getMessage().contains("RESHAPE whose new shape"), refusal.getMessage());
                return;
            }
            DifferentialRun.Result run = DifferentialRun.run(loaded, settings, new TflitePlanner(), 3, 1, true);
            if (!settings.xnnpack() || !XNNPACK_READS_UNWRITTEN.containsKey(name)) {
                assertTrue(run.outputsIdentical(), run::firstDifference);
            }
            // TFLite sizes the nodes after a dynamic-shape op during Invoke, and plans them in its own arenas.
            if (!TflitePlanner.isDynamic(check.graph())) {
                assertTrue(run.handover().tensorsHandedOver() > 0, "tensors handed over");
                // An arena with nothing in it still holds the release's padding (none from 2.18 on), per subgraph.
                long padding = NativeRelease.loaded().arenaBufferPadding() * check.graph().subgraphs().size();
                assertTrue(run.candidate().arenaBytes() <= padding,
                        () -> name + ": " + run.candidate().arenaBytes() + " bytes left in TFLite's arenas");
                if (!PERSISTENT_LEFT.containsKey(name) || settings.xnnpack()) {
                    assertEquals(0, run.candidate().persistentBytes(), "native persistent bytes left");
                }
            } else if (run.handover().tensorsHandedOver() > 0) {
                assertTrue(run.candidate().arenaBytes() < run.reference().arenaBytes(),
                        () -> name + ": the nodes prepared with the tensors were not handed over");
            } else {
                // A dynamic op first (while_after_where's WHERE): TFLite prepares nothing before it.
                assertEquals(run.reference().arenaBytes(), run.candidate().arenaBytes(), name);
            }
        }
    }
}
