package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanValidatorTest {
    // in(0) -> a(1) -> view(2, in place of a) -> out(3); node 0 has a temporary (4); a persistent tensor (5)
    private static Graph graph() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(256), a = g.tensor(256), view = g.tensor(256), out = g.tensor(256), temp = g.tensor(128);
        int state = g.tensor(64, Allocation.ARENA_RW_PERSISTENT);
        g.node(ids(in), ids(a), ids(temp, state), 0)
                .node(ids(a), ids(view), ids(), Inplace.DATA_UNMODIFIED | Inplace.INPUT0_SHARED)
                .node(ids(view), ids(out))
                .inputs(in).outputs(out);
        return g.build();
    }

    private static Plan edit(Plan plan, int tensor, UnaryOperator<Placement> change) {
        SubgraphPlan sp = plan.subgraphs().get(0);
        List<Placement> placements = new ArrayList<>(sp.placements());
        placements.replaceAll(p -> p.tensor() == tensor ? change.apply(p) : p);
        return new Plan("edited", List.of(new SubgraphPlan(0, sp.arenaBytes(), sp.persistentBytes(), placements)));
    }

    private static Placement at(Placement p, long offset) {
        return new Placement(p.tensor(), p.arena(), offset, p.bytes(), p.first(), p.last(), p.aliasOf());
    }

    private static String refusal(Plan plan) {
        return assertThrows(InvalidPlanException.class, () -> PlanValidator.validate(graph(), plan, 64)).getMessage();
    }

    @Test
    void theTflitePlanIsValid() {
        assertDoesNotThrow(() -> PlanValidator.validate(graph(), new TflitePlanner().plan(graph()), 64));
    }

    @Test
    void twoLiveTensorsSharingBytesAreRefusedByNameAndInterval() {
        Plan plan = new TflitePlanner().plan(graph());
        long inOffset = plan.subgraphs().get(0).placements().get(0).offset();
        String message = refusal(edit(plan, 4, p -> at(p, inOffset + 64)));
        assertEquals("subgraph 0: tensors 0 (t0) at bytes 0..256, live at nodes 0..2, and 4 (t4) at bytes 64..192,"
                + " live at nodes 0..0, share memory while both live", message);
    }

    @Test
    void tensorsThatNeverLiveTogetherMayShareBytes() {
        Plan plan = new TflitePlanner().plan(graph());
        long outOffset = plan.subgraphs().get(0).placements().get(3).offset();
        // The temporary lives at node 0 only, the output from node 2 on.
        assertDoesNotThrow(() -> PlanValidator.validate(graph(), edit(plan, 4, p -> at(p, outOffset)), 64));
    }

    @Test
    void misalignedMissingOutOfArenaAndMisplacedAliasAreRefused() {
        Plan plan = new TflitePlanner().plan(graph());
        assertTrue(refusal(edit(plan, 3, p -> at(p, p.offset() + 8))).endsWith("is not a multiple of 64"));
        assertTrue(refusal(edit(plan, 1, p -> at(p, -1))).endsWith("lives from node 0 but the plan gives it no memory"));
        long arena = plan.subgraphs().get(0).arenaBytes();
        assertTrue(refusal(edit(plan, 3, p -> at(p, arena - 64))).contains("run past the end of the rw arena"));
        assertTrue(refusal(edit(plan, 2, p -> at(p, p.offset() + 256))).contains("shares tensor 1's memory in place"));
        assertTrue(refusal(edit(plan, 5, p -> at(p, 64))).contains("run past the end of the persistent arena"));
    }

    @Test
    void aPlanForAnotherGraphIsRefused() {
        Plan plan = new TflitePlanner().plan(graph());
        Plan twoSubgraphs = new Plan("x", List.of(plan.subgraphs().get(0), plan.subgraphs().get(0)));
        assertTrue(refusal(twoSubgraphs).contains("covers 2 subgraphs, the graph has 1"));
    }

    @Test
    void anArenaTooLargeToSortIsRefusedByItsSize() {
        Plan plan = new TflitePlanner().plan(graph());
        SubgraphPlan sp = plan.subgraphs().get(0);
        Plan huge = new Plan("huge", List.of(new SubgraphPlan(0, Long.MAX_VALUE / 2, sp.persistentBytes(),
                sp.placements())));
        assertEquals("subgraph 0: an arena of " + Long.MAX_VALUE / 2 + " bytes for 5 tensors is beyond what can be"
                + " validated", refusal(huge));
    }

    @Test
    void aValidatedPlanIsOnlyMadeOfAPlanTheValidatorAccepts() {
        Plan plan = new TflitePlanner().plan(graph());
        ValidatedPlan validated = ValidatedPlan.of(graph(), plan, 64);
        assertEquals(plan, validated.plan());
        assertEquals(64, validated.alignment());
        Plan broken = edit(plan, 3, p -> at(p, p.offset() + 8));
        assertThrows(InvalidPlanException.class, () -> ValidatedPlan.of(graph(), broken, 64));
    }

    /** The graph twice, as subgraphs 0 and 1. */
    private static Graph twoSubgraphs() {
        Graph one = graph();
        Subgraph s = one.subgraphs().get(0);
        return new Graph(one.options(), List.of(s, new Subgraph(1, "second", s.tensors(), s.nodes(), s.inputs(),
                s.outputs(), s.variables())));
    }

    private static SubgraphPlan entry(Plan plan, int subgraph) {
        SubgraphPlan sp = plan.subgraphs().get(0);
        return new SubgraphPlan(subgraph, sp.arenaBytes(), sp.persistentBytes(), sp.placements());
    }

    @Test
    void anOffsetWhoseEndWouldWrapIsRefusedByTensorAndArena() {
        Plan plan = new TflitePlanner().plan(graph());
        long wild = Long.MAX_VALUE - 63;
        assertEquals("subgraph 0, tensor 3 (t3): 256 bytes at offset " + wild + " run past the end of the rw arena ("
                + plan.subgraphs().get(0).arenaBytes() + " bytes)", refusal(edit(plan, 3, p -> at(p, wild))));
        assertEquals("subgraph 0, tensor 3 (t3): offset -64 is neither a place in the arena nor -1 (no memory)",
                refusal(edit(plan, 3, p -> at(p, -64))));
    }

    @Test
    void subgraphEntriesAreAppliedByTheSubgraphTheyNameEachOnce() {
        Plan one = new TflitePlanner().plan(graph());
        Graph graph = twoSubgraphs();
        Plan swapped = new Plan("x", List.of(entry(one, 1), entry(one, 0)));
        ValidatedPlan validated = ValidatedPlan.of(graph, swapped, 64);
        assertEquals(List.of(0, 1), validated.plan().subgraphs().stream().map(SubgraphPlan::subgraph).toList());
        String twice = assertThrows(InvalidPlanException.class, () -> PlanValidator.validate(graph,
                new Plan("x", List.of(entry(one, 0), entry(one, 0))), 64)).getMessage();
        assertEquals("plan 'x', subgraph entry 1: names subgraph 0, as entry 0 does", twice);
        String beyond = assertThrows(InvalidPlanException.class, () -> PlanValidator.validate(graph,
                new Plan("x", List.of(entry(one, 0), entry(one, Integer.MAX_VALUE))), 64)).getMessage();
        assertEquals("plan 'x', subgraph entry 1: names subgraph 2147483647, the graph has subgraphs 0..1", beyond);
        assertTrue(refusal(new Plan("x", List.of(entry(one, -1)))).contains("names subgraph -1"));
    }

    @Test
    void aDeclaredArenaIsWhatItsPlacementsNeedRoundedUp() {
        Plan plan = new TflitePlanner().plan(graph());
        SubgraphPlan sp = plan.subgraphs().get(0);
        long needed = sp.arenaBytes();
        long rounded = (needed + 63) / 64 * 64;
        assertDoesNotThrow(() -> PlanValidator.validate(graph(), new Plan("x", List.of(new SubgraphPlan(0, rounded,
                sp.persistentBytes(), sp.placements()))), 64));
        assertEquals("subgraph 0: the plan declares a rw arena of " + (rounded + 1) + " bytes, its placements need "
                        + needed + " (" + rounded + " rounded up to 64)",
                refusal(new Plan("x", List.of(new SubgraphPlan(0, rounded + 1, sp.persistentBytes(), sp.placements())))));
        assertTrue(refusal(new Plan("x", List.of(new SubgraphPlan(0, needed, 1L << 40, sp.placements()))))
                .startsWith("subgraph 0: the plan declares a persistent arena of 1099511627776 bytes"));
        assertTrue(refusal(new Plan("x", List.of(new SubgraphPlan(0, -1, sp.persistentBytes(), sp.placements()))))
                .startsWith("subgraph 0: the plan declares arenas of -1 (rw)"));
    }

    @Test
    void lifetimesAndAliasRootsInThePlanAreNeverRead() {
        Plan plan = new TflitePlanner().plan(graph());
        Plan wild = edit(plan, 1, p -> new Placement(p.tensor(), p.arena(), p.offset(), p.bytes(), Integer.MAX_VALUE,
                -7, 99));
        assertDoesNotThrow(() -> PlanValidator.validate(graph(), wild, 64));
    }
}
