package dev.tflitearena.plan.tflite;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.plan.SubgraphPlan;
import org.junit.jupiter.api.Test;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where TFLite stops preparing a graph when tensors are allocated, and what it plans before it goes on. */
class StoppedPreparingTest {
    private static final int INPLACE_NONE = 0;

    /**
     * input → RESHAPE(input, ADD(constant, constant)) → reshaped; MUL(reshaped) → b; ADD(b, reshaped) → out,
     * with {@code reshaped} as the graph shows it: dynamic once the node ran, an arena tensor before.
     */
    private static Graph computedReshape(TfliteRelease release, Allocation reshaped) {
        GraphBuilder g = new GraphBuilder().release(release);
        int in = g.tensor(256), constant = g.tensor(8, Allocation.MMAP_RO), shape = g.tensor(8);
        int out1 = g.tensor(256, reshaped), b = g.tensor(256), out = g.tensor(256);
        g.op("ADD", ids(constant, constant), ids(shape), INPLACE_NONE)
                .op("RESHAPE", ids(in, shape), ids(out1), INPLACE_NONE)
                .op("MUL", ids(out1, out1), ids(b), INPLACE_NONE)
                .op("ADD", ids(b, out1), ids(out), INPLACE_NONE)
                .inputs(in).outputs(out);
        return g.build();
    }

    private static long offset(SubgraphPlan plan, int tensor) {
        return plan.placements().stream().filter(p -> p.tensor() == tensor).findFirst().orElseThrow().offset();
    }

    @Test
    void from219AReshapeOfComputedShapeKeepsItsArenaBytesAfterTurningDynamic() {
        SubgraphPlan plan = new TflitePlanner().plan(computedReshape(TfliteRelease.V2_20, Allocation.DYNAMIC))
                .subgraphs().get(0);
        // Planned up to the RESHAPE: the input at 0, the reshape's output at 256 with its input's size, the
        // shape at 512. After it turned dynamic its bytes stay taken while it lives, to node 3.
        assertEquals(0, offset(plan, 0));
        assertEquals(512, offset(plan, 2));
        assertEquals(512, offset(plan, 4));
        assertEquals(768, offset(plan, 5));
        assertEquals(1024, plan.arenaBytes());
        assertEquals(-1, plan.placements().stream().filter(p -> p.tensor() == 3).findFirst().map(p -> p.offset())
                .orElse(-1L), "a dynamic tensor has no arena offset");
    }

    @Test
    void upTo218TheReshapesPrepareMadeItDynamicAndNothingOfItIsInTheArena() {
        SubgraphPlan plan = new TflitePlanner().plan(computedReshape(TfliteRelease.V2_18, Allocation.DYNAMIC))
                .subgraphs().get(0);
        assertEquals(256, offset(plan, 2));
        assertEquals(256, offset(plan, 4));
        assertEquals(512, offset(plan, 5));
        assertEquals(768, plan.arenaBytes());
    }

    @Test
    void aReshapeOfComputedShapeMakesTheGraphDynamicFrom219Only() {
        assertTrue(TflitePlanner.isDynamic(computedReshape(TfliteRelease.V2_20, Allocation.ARENA_RW)));
        assertTrue(TflitePlanner.isDynamic(computedReshape(TfliteRelease.V2_19, Allocation.ARENA_RW)));
        assertFalse(TflitePlanner.isDynamic(computedReshape(TfliteRelease.V2_18, Allocation.ARENA_RW)),
                "up to 2.18 the output itself is dynamic when the shape is computed, never an arena tensor");
    }

    @Test
    void anUnpreparedVarHandleIsNoDynamicOp() {
        GraphBuilder g = new GraphBuilder();
        int handle = g.tensor(0, Allocation.DYNAMIC), value = g.tensor(64, Allocation.MMAP_RO);
        g.op("VAR_HANDLE", ids(), ids(handle), INPLACE_NONE).op("ASSIGN_VARIABLE", ids(handle, value), ids(),
                INPLACE_NONE);
        assertFalse(TflitePlanner.isDynamic(g.build()));
    }
}
