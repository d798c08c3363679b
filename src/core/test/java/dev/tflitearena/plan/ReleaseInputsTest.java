package dev.tflitearena.plan;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.place.TflmLinearPlacer;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Graph inputs released after their last consumer: the lifetimes, the bound, the planners and the validator. */
class ReleaseInputsTest {
    private static final int IN = 0, A = 1, B = 2, OUT = 3;

    // in(0) -> a(1); (in, a) -> b(2); b -> out(3): the input's last consumer is node 1.
    private static Graph chain(boolean release) {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), a = g.tensor(1024), b = g.tensor(1024), out = g.tensor(1024);
        return g.node(ids(in), ids(a)).node(ids(in, a), ids(b)).node(ids(b), ids(out))
                .inputs(in).outputs(out).releaseInputs(release).build();
    }

    private static Lifetimes lifetimes(Graph graph) {
        return Lifetimes.of(graph.subgraphs().get(0), graph.options());
    }

    private static Placement placement(Plan plan, int tensor) {
        return plan.subgraphs().get(0).placements().stream().filter(p -> p.tensor() == tensor).findFirst()
                .orElseThrow();
    }

    /** The plan with one tensor moved to another's offset. */
    private static Plan moved(Plan plan, int tensor, int onto) {
        SubgraphPlan sp = plan.subgraphs().get(0);
        long offset = placement(plan, onto).offset();
        List<Placement> placements = new ArrayList<>(sp.placements());
        placements.replaceAll(p -> p.tensor() != tensor ? p
                : new Placement(p.tensor(), p.arena(), offset, p.bytes(), p.first(), p.last(), p.aliasOf()));
        return new Plan("moved", List.of(new SubgraphPlan(0, sp.arenaBytes(), sp.persistentBytes(), placements)));
    }

    @Test
    void anInputLivesUntilItsLastConsumerInsteadOfToTheEnd() {
        assertEquals(Lifetimes.NOT_ASSIGNED, lifetimes(chain(false)).deallocNode(IN), "TFLite keeps graph inputs");
        assertEquals(2, lifetimes(chain(false)).lastNode(IN));
        Lifetimes released = lifetimes(chain(true));
        assertEquals(0, released.allocNode(IN));
        assertEquals(1, released.lastNode(IN));
        assertEquals(lifetimes(chain(false)).lastNode(B), released.lastNode(B), "other tensors keep theirs");
    }

    @Test
    void theLowerBoundFallsByTheInputOnceItIsRead() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), a = g.tensor(1024), b = g.tensor(1024);
        Graph graph = g.node(ids(in), ids(a)).node(ids(a), ids(b)).inputs(in).outputs(b).releaseInputs(true).build();
        Subgraph s = graph.subgraphs().get(0);
        assertEquals(3 * 1024, LowerBound.of(s, graph.options().withReleaseInputs(false)), "in, a and b at node 1");
        assertEquals(2 * 1024, LowerBound.of(s, graph.options()), "a and b at node 1");
    }

    @Test
    void everyJavaPlannerReusesTheInputsBytesAndReachesTheBound() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), a = g.tensor(1024), b = g.tensor(1024);
        Graph graph = g.node(ids(in), ids(a)).node(ids(a), ids(b)).inputs(in).outputs(b).releaseInputs(true).build();
        for (Planner planner : Planners.all(Duration.ofSeconds(5))) {
            Plan plan = planner.plan(graph);
            assertDoesNotThrow(() -> PlanValidator.validate(graph, plan, 64), planner.name());
            if (planner.name().equals(TflmLinearPlacer.NAME)) {
                // TFLM's LinearMemoryPlanner reuses nothing: every tensor after the one before, valid under both rules.
                assertEquals(3 * 1024, plan.subgraphs().get(0).arenaBytes());
                assertDoesNotThrow(() -> PlanValidator.validate(graph.withReleaseInputs(false), plan, 64));
                continue;
            }
            assertEquals(2 * 1024, plan.subgraphs().get(0).arenaBytes(), planner.name());
            assertEquals(placement(plan, in).offset(), placement(plan, b).offset(),
                    planner.name() + ": the output takes the freed input's bytes");
            assertThrows(InvalidPlanException.class,
                    () -> PlanValidator.validate(graph.withReleaseInputs(false), plan, 64),
                    planner.name() + ": under TFLite's rule the same plan overwrites a live input");
        }
    }

    @Test
    void theValidatorRefusesReuseBeforeTheLastUseUnderTheRuleAndAnyReuseWithout() {
        Graph released = chain(true);
        Plan plan = new TflitePlanner().plan(released);
        String early = assertThrows(InvalidPlanException.class,
                () -> PlanValidator.validate(released, moved(plan, B, IN), 64)).getMessage();
        assertTrue(early.contains("0 (t0)") && early.contains("live at nodes 0..1"), early);
        Plan late = moved(plan, OUT, IN);
        assertDoesNotThrow(() -> PlanValidator.validate(released, late, 64), "out is made after in's last use");
        assertThrows(InvalidPlanException.class, () -> PlanValidator.validate(chain(false), late, 64));
    }

    @Test
    void anInputNoNodeReadsLivesAtNodeZeroOnly() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), unused = g.tensor(4096), a = g.tensor(1024), b = g.tensor(1024);
        Graph graph = g.node(ids(in), ids(a)).node(ids(a), ids(b)).inputs(in, unused).outputs(b)
                .releaseInputs(true).build();
        Lifetimes lifetimes = lifetimes(graph);
        assertEquals(0, lifetimes.allocNode(unused));
        assertEquals(0, lifetimes.deallocNode(unused));
        assertEquals(0, lifetimes.lastNode(unused));
    }

    @Test
    void anInputThatIsAlsoAnOutputAndVariablesLiveToTheEnd() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), state = g.tensor(256), a = g.tensor(1024), b = g.tensor(1024);
        Graph graph = g.node(ids(in, state), ids(a)).node(ids(a), ids(b)).inputs(in).outputs(b, in)
                .variables(state).releaseInputs(true).build();
        Lifetimes lifetimes = lifetimes(graph);
        assertEquals(Lifetimes.NOT_ASSIGNED, lifetimes.deallocNode(in), "the caller reads it back as an output");
        assertEquals(Lifetimes.NOT_ASSIGNED, lifetimes.deallocNode(state), "state is kept between runs");
    }

    @Test
    void noOutputSharesAnInputInPlace() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1024), view = g.tensor(1024), out = g.tensor(1024);
        Graph graph = g.node(ids(in), ids(view), ids(), Inplace.DATA_UNMODIFIED | Inplace.INPUT0_SHARED)
                .node(ids(view), ids(out)).inputs(in).outputs(out).releaseInputs(true).build();
        Lifetimes lifetimes = lifetimes(graph);
        assertEquals(-1, lifetimes.aliasRoot(view), "TFLite never shares a graph input in place");
        assertEquals(0, lifetimes.lastNode(in));
    }

    @Test
    void controlFlowSubgraphsAndPreserveAllTensorsKeepTheirInputs() {
        Graph primary = chain(true);
        Subgraph s = primary.subgraphs().get(0);
        Subgraph body = new Subgraph(1, "body", s.tensors(), s.nodes(), s.inputs(), s.outputs(), s.variables());
        assertEquals(Lifetimes.NOT_ASSIGNED, Lifetimes.of(body, primary.options()).deallocNode(IN),
                "a WHILE or IF writes a control-flow subgraph's inputs");
        Graph.Options preserving = new Graph.Options(64, true, primary.options().release(), true);
        assertEquals(Lifetimes.NOT_ASSIGNED, Lifetimes.of(s, preserving).deallocNode(IN));
    }

    @Test
    void thePictureDrawsTheInputUntilItsLastConsumerAndTheBoundUnderTheRule() {
        Graph released = chain(true);
        PlanPicture.Panel panel = PlanPicture.of(released, new TflitePlanner().plan(released)).panels().get(0);
        PlanPicture.Box input = panel.boxes().stream().filter(b -> b.label().equals("t0")).findFirst().orElseThrow();
        assertEquals(0, input.first());
        assertEquals(1, input.last());
        assertEquals(LowerBound.of(released.subgraphs().get(0), released.options()), panel.lowerBound());
    }

    @Test
    void graphJsonKeepsTheRule() {
        Graph released = chain(true);
        assertTrue(GraphJson.parse(GraphJson.toJson(released)).options().releaseInputs());
        assertTrue(GraphJson.toJson(released).contains("\"release_inputs\""));
        assertTrue(!GraphJson.toJson(chain(false)).contains("release_inputs"), "TFLite's rule writes what it did");
    }

    @Test
    void theDemoChainsBoundUnderEachRule() {
        Graph graph = dev.tflitearena.graph.ClassicChain.graph();
        Subgraph s = graph.subgraphs().get(0);
        assertEquals(1_806_336, LowerBound.of(s, graph.options()));
        assertEquals(1_404_928, LowerBound.of(s, graph.options().withReleaseInputs(true)));
        assertEquals(1_404_928, new TflitePlanner().plan(graph.withReleaseInputs(true)).subgraphs().get(0)
                .arenaBytes());
    }
}
