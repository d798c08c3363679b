package dev.tflitearena.bridge;

import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The models built in code, each cross-checked against the native planner and run on a Java plan. */
class SampleModelsTest {

    static Stream<Arguments> samplesWithAndWithoutXnnpack() {
        return SampleModels.all().entrySet().stream().flatMap(e -> Stream.of(
                Arguments.of(e.getKey(), e.getValue(), InterpreterSettings.DEFAULT),
                Arguments.of(e.getKey(), e.getValue(), InterpreterSettings.DEFAULT.withXnnpack(true))));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("samplesWithAndWithoutXnnpack")
    void javaPlanEqualsNativePlanAndDrivesTheRuntime(String name, Supplier<byte[]> model, InterpreterSettings settings) {
        try (NativeModel loaded = NativeModel.fromBytes(model.get(), name)) {
            CrossCheck.Result check = CrossCheck.run(loaded, settings, 1);
            assertTrue(check.comparison().identical(), () -> name + " differs: " + check.comparison().subgraphs());
            boolean dynamic = TflitePlanner.isDynamic(check.graph());
            if (dynamic) {
                assertEquals(1, check.invokes());
            }
            if (dynamic) {
                NativeException refusal = assertThrows(NativeException.class,
                        () -> DifferentialRun.run(loaded, settings, new TflitePlanner(), 2, 1, true));
                assertTrue(refusal.getMessage().contains("dynamic-shape ops"), refusal.getMessage());
                return;
            }
            DifferentialRun.Result run = DifferentialRun.run(loaded, settings, new TflitePlanner(), 3, 1, true);
            assertTrue(run.outputsIdentical(), run::firstDifference);
            if (check.graph().subgraphs().size() == 1) {
                assertEquals(NativeRelease.loaded().arenaBufferPadding(), run.candidate().arenaBytes(), "native arena bytes left");
            }
        }
    }
}
