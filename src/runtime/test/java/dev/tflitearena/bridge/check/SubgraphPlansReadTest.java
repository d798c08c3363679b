package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.PlanComparison.SubgraphComparison;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The samples whose plans TFLite makes at other moments than AllocateTensors: a RESHAPE whose new shape is
 * computed, CALL_ONCE's init subgraph, a WHILE prepared inside an invoke, a signature's subgraph. Each subgraph
 * is compared with the native plan read while TFLite holds it, in every interpreter setting.
 */
class SubgraphPlansReadTest {
    private static final List<InterpreterSettings> SETTINGS = List.of(InterpreterSettings.DEFAULT,
            InterpreterSettings.DEFAULT.withPreserveAllTensors(true), InterpreterSettings.DEFAULT.withXnnpack(true));

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("reshape_computed_shape", (Supplier<byte[]>) SampleModels::reshapeComputedShape, 1, 1),
                Arguments.of("resource_variables", (Supplier<byte[]>) SampleModels::resourceVariables, 2, 1),
                Arguments.of("while_after_where", (Supplier<byte[]>) SampleModels::whileAfterWhere, 3, 1),
                Arguments.of("two_signatures", (Supplier<byte[]>) SampleModels::twoSignatures, 2, 0))
                .flatMap(a -> SETTINGS.stream().map(s -> Arguments.of(a.get()[0], a.get()[1], a.get()[2], a.get()[3], s)));
    }

    @ParameterizedTest(name = "{0} {4}")
    @MethodSource("samples")
    void everySubgraphIsComparedAndIdentical(String name, Supplier<byte[]> model, int subgraphs, int invokes,
                                             InterpreterSettings settings) {
        try (NativeModel loaded = NativeModel.fromBytes(model.get(), name)) {
            CrossCheck.Result check = CrossCheck.run(loaded, settings, 1);
            if (!settings.xnnpack()) {
                // XNNPACK before 2.20 prepares every subgraph when it delegates, CALL_ONCE's init subgraph too.
                assertEquals(invokes, check.invokes(), () -> name + ": " + check.invokedFor());
            }
            assertEquals(subgraphs, check.comparison().subgraphs().size());
            for (SubgraphComparison c : check.comparison().subgraphs()) {
                assertTrue(c.compared(), () -> name + ", subgraph " + c.subgraph() + ": " + c.notCompared());
                assertTrue(c.tensorsCompared() > 0, () -> name + ", subgraph " + c.subgraph() + " compares nothing");
                assertTrue(c.identical(), () -> name + ", subgraph " + c.subgraph() + " differs: " + c.mismatches());
            }
        }
    }

    /** Under 2.18's rules RESHAPE's prepare made its output dynamic, so 2.20's plan is not 2.18's. */
    @Test
    void theReshapeIsPlannedAsTheLoadedReleaseDoes() {
        TfliteRelease loaded = NativeRelease.loaded();
        try (NativeModel model = NativeModel.fromBytes(SampleModels.reshapeComputedShape(), "reshape_computed_shape")) {
            CrossCheck.Result own = CrossCheck.run(model, InterpreterSettings.DEFAULT, 1);
            assertTrue(own.comparison().identical());
            if (loaded.reshapeShapeNotKnown()) {
                CrossCheck.Result older = CrossCheck.run(model, InterpreterSettings.DEFAULT.withRelease(TfliteRelease.V2_18), 1);
                assertFalse(older.comparison().identical(), "2.18's rules should not give " + loaded + "'s plan");
            }
        }
    }

    @Test
    void aSubgraphNothingRunsHasNoNativePlanAndIsNoMismatch() {
        try (NativeModel model = NativeModel.fromBytes(SampleModels.unreachableSubgraph(), "unreachable_subgraph")) {
            CrossCheck.Result check = CrossCheck.run(model, InterpreterSettings.DEFAULT, 1);
            SubgraphComparison primary = check.comparison().subgraphs().get(0);
            SubgraphComparison unreachable = check.comparison().subgraphs().get(1);
            assertTrue(primary.compared());
            assertNull(primary.notCompared());
            assertFalse(unreachable.compared());
            assertEquals("TFLite never planned it, even in an invoke", unreachable.notCompared());
            assertTrue(check.comparison().identical());
        }
    }

    @Test
    void runRefusesTheComputedReshapeClearlyAndRunsTheResourceVariables() {
        try (NativeModel model = NativeModel.fromBytes(SampleModels.reshapeComputedShape(), "reshape_computed_shape")) {
            NativeException refusal = assertThrows(NativeException.class, () -> DifferentialRun.run(model,
                    InterpreterSettings.DEFAULT, new TflitePlanner(), 1, 1, true));
            assertTrue(refusal.getMessage().contains("a RESHAPE whose new shape an op computes"), refusal.getMessage());
        }
        try (NativeModel model = NativeModel.fromBytes(SampleModels.resourceVariables(), "resource_variables")) {
            DifferentialRun.Result run = DifferentialRun.run(model, InterpreterSettings.DEFAULT,
                    new TflitePlanner(), 3, 1, true);
            assertTrue(run.outputsIdentical(), run::firstDifference);
        }
    }
}
