package dev.tflitearena.plan.tflite;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.SubgraphPlan;
import org.junit.jupiter.api.Test;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The planner rules that differ between TFLite releases, on hand-made graphs whose offsets are worked out by
 * hand: which outputs share their input's memory, and whether they still do under preserve_all_tensors.
 */
class TfliteReleaseRulesTest {
    private static final int IN = 0, A = 1, RESHAPED = 2, SUM = 3, OUT = 4;

    /**
     * in -> a -> RESHAPE (no in-place flags, as 2.12 records it) -> reshaped -> ADD (inputs 0 and 1 may be
     * shared, as 2.13+ records it) -> sum -> out; 400 bytes each.
     */
    private static Graph chain(TfliteRelease release, boolean preserveAll) {
        GraphBuilder g = new GraphBuilder().release(release).options(64, preserveAll);
        for (int t = 0; t < 5; t++) {
            g.tensor(400);
        }
        return g.node(ids(IN), ids(A))
                .op("RESHAPE", ids(A), ids(RESHAPED), Inplace.NONE)
                .op("ADD", ids(RESHAPED), ids(SUM), Inplace.INPUT0_SHARED | Inplace.INPUT1_SHARED)
                .node(ids(SUM), ids(OUT))
                .inputs(IN).outputs(OUT).build();
    }

    private static SubgraphPlan plan(Graph graph) {
        return new TflitePlanner().plan(graph).subgraphs().get(0);
    }

    private static Placement placement(SubgraphPlan plan, int tensor) {
        return plan.placements().stream().filter(p -> p.tensor() == tensor).findFirst().orElseThrow();
    }

    /** Plans the chain and checks each output's root (-1: none), the offsets of tensors 0..4 and the arena. */
    private static void assertChain(TfliteRelease release, boolean preserveAll, int reshapedRoot, int sumRoot,
                                    long arenaBytes, long... offsets) {
        String where = release + (preserveAll ? ", preserve_all_tensors" : "");
        SubgraphPlan plan = plan(chain(release, preserveAll));
        assertEquals(reshapedRoot, placement(plan, RESHAPED).aliasOf(), where);
        assertEquals(sumRoot, placement(plan, SUM).aliasOf(), where);
        for (int t = 0; t < offsets.length; t++) {
            assertEquals(offsets[t], placement(plan, t).offset(), where + ", tensor " + t);
        }
        assertEquals(arenaBytes, plan.arenaBytes(), where);
    }

    @Test
    void release212SharesTheReshapingOpsByNameAndIgnoresInPlaceFlags() {
        // a lives until the ADD reads its alias; out takes the gap a leaves below sum.
        assertChain(TfliteRelease.V2_12, false, A, -1, 1296, 0, 448, 448, 896, 448);
    }

    @Test
    void from213TheRegistrationsFlagsDecide() {
        assertChain(TfliteRelease.V2_15, false, -1, RESHAPED, 1296, 0, 448, 896, 896, 448);
        assertChain(TfliteRelease.V2_20, false, -1, RESHAPED, 1296, 0, 448, 896, 896, 448);
    }

    @Test
    void upTo215OutputsStillShareUnderPreserveAllTensors() {
        assertChain(TfliteRelease.V2_12, true, A, -1, 1744, 0, 448, 448, 896, 1344);
        assertChain(TfliteRelease.V2_15, true, -1, RESHAPED, 1744, 0, 448, 896, 896, 1344);
        assertChain(TfliteRelease.V2_18, true, -1, -1, 2192, 0, 448, 896, 1344, 1792);
    }

    @Test
    void release212KeepsAnAliasWhateverItsRootsSizeLaterOnesGiveItItsOwnMemory() {
        for (TfliteRelease release : new TfliteRelease[]{TfliteRelease.V2_12, TfliteRelease.V2_20}) {
            GraphBuilder g = new GraphBuilder().release(release);
            int in = g.tensor(400), a = g.tensor(400), reshaped = g.tensor(800), out = g.tensor(400);
            g.node(ids(in), ids(a))
                    .op("RESHAPE", ids(a), ids(reshaped), Inplace.DATA_UNMODIFIED | Inplace.INPUT0_SHARED)
                    .node(ids(reshaped), ids(out))
                    .inputs(in).outputs(out);
            SubgraphPlan plan = plan(g.build());
            boolean kept = release == TfliteRelease.V2_12;
            assertEquals(kept ? a : -1, placement(plan, reshaped).aliasOf(), release.version());
            // Without the alias, reshaped (largest, living to the end) is placed before a and pushes it up.
            assertEquals(kept ? 448 : 1280, placement(plan, a).offset(), release.version());
            assertEquals(448, placement(plan, reshaped).offset(), release.version());
            assertEquals(kept ? 1296 : 2128, plan.arenaBytes(), release.version());
        }
    }

    @Test
    void release212NeverSharesAGraphInputOrOutput() {
        GraphBuilder g = new GraphBuilder().release(TfliteRelease.V2_12);
        int in = g.tensor(400), reshaped = g.tensor(400), a = g.tensor(400), out = g.tensor(400);
        g.op("RESHAPE", ids(in), ids(reshaped), Inplace.NONE)
                .node(ids(reshaped), ids(a))
                .op("SQUEEZE", ids(a), ids(out), Inplace.NONE)
                .inputs(in).outputs(out);
        SubgraphPlan plan = plan(g.build());
        assertEquals(-1, placement(plan, reshaped).aliasOf());
        assertEquals(-1, placement(plan, out).aliasOf());
    }
}
