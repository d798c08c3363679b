package dev.tflitearena.bridge;

import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The models built in code, each cross-checked against the native planner and run on a Java plan, in the
 * three modes of {@code compare}: plain, with XNNPACK, with preserve_all_tensors.
 */
class SampleModelsTest {
    /**
     * Samples whose native plan cannot be compared yet, and why: issue 21, item 2. The test fails once they
     * compare identical, so that the entry goes.
     */
    private static final Map<String, String> NATIVE_PLAN_NOT_READ = Map.of(
            "two_signatures", "the decode signature's subgraph is only allocated by its signature runner");

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
            if (NATIVE_PLAN_NOT_READ.containsKey(name)) {
                assertFalse(check.comparison().identical(), name + " compares identical now: drop it from the list");
            } else {
                assertTrue(check.comparison().identical(), () -> name + " differs: " + check.comparison().subgraphs());
            }
            DifferentialRun.Result run = DifferentialRun.run(loaded, settings, new TflitePlanner(), 3, 1, true);
            assertTrue(run.outputsIdentical(), run::firstDifference);
            assertTrue(run.handover().tensorsHandedOver() > 0, "tensors handed over");
            // CrossCheck invokes first a graph that has dynamic-shape ops when tensors are allocated: TFLite
            // sizes the nodes after such an op during Invoke, and plans them in its own arenas.
            if (check.invokes() == 0) {
                // An arena with nothing in it still holds the release's padding (none from 2.18 on), per subgraph.
                long padding = NativeRelease.loaded().arenaBufferPadding() * check.graph().subgraphs().size();
                assertTrue(run.candidate().arenaBytes() <= padding,
                        () -> name + ": " + run.candidate().arenaBytes() + " bytes left in TFLite's arenas");
                assertEquals(0, run.candidate().persistentBytes(), "native persistent bytes left");
            } else {
                assertTrue(run.candidate().arenaBytes() < run.reference().arenaBytes(),
                        () -> name + ": the nodes prepared with the tensors were not handed over");
            }
        }
    }
}
