package dev.tflitearena.plan.group;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.catalog.Planners;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupPlannerTest {
    private static final Duration LIMIT = Duration.ofSeconds(2);

    /** in(0) -> a(1) -> b(2) -> out(3): the middle two are the big ones; a persistent tensor (4) at node 0. */
    private static Graph chain(long big) {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(256), a = g.tensor(big), b = g.tensor(big), out = g.tensor(128);
        int state = g.tensor(64, Allocation.ARENA_RW_PERSISTENT);
        g.node(ids(in), ids(a), ids(state), 0).node(ids(a), ids(b)).node(ids(b), ids(out)).inputs(in).outputs(out);
        return g.build();
    }

    /** The same chain with an rw variable (5) that node 1 reads: it must keep its value from run to run. */
    private static Graph chainWithVariable() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(256), a = g.tensor(1024), b = g.tensor(1024), out = g.tensor(128);
        g.tensor(64, Allocation.ARENA_RW_PERSISTENT);
        int variable = g.tensor(512);
        g.node(ids(in), ids(a)).node(ids(a, variable), ids(b)).node(ids(b), ids(out))
                .inputs(in).outputs(out).variables(variable);
        return g.build();
    }

    private static Placement placement(GroupPlan plan, int model, int tensor) {
        return plan.models().get(model).subgraphs().get(0).placements().stream().filter(p -> p.tensor() == tensor)
                .findFirst().orElseThrow();
    }

    private static boolean shareBytes(Placement a, Placement b) {
        return a.offset() < b.offset() + b.bytes() && b.offset() < a.offset() + a.bytes();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tflite", "greedy-by-size", "best-of", "optimal"})
    void theSharedRegionIsTheLargestModelsArenaNotTheSum(String planner) {
        List<Graph> graphs = List.of(chain(4096), chain(2048), chain(1024));
        GroupPlan plan = GroupPlanner.plan(graphs, planner, LIMIT);
        assertDoesNotThrow(() -> GroupPlanner.validate(graphs, plan, 64));
        assertEquals(List.of(8192L + 256, 4096L + 256, 2048L + 256), plan.aloneBytes());
        assertEquals(plan.largestAloneBytes(), plan.sharedBytes());
        assertEquals(plan.sharedBytes(), plan.arenaBytes());
        for (Plan model : plan.models()) {
            assertEquals(plan.sharedBytes(), model.subgraphs().get(0).arenaBytes());
        }
        // The small models' activations sit on the big one's bytes.
        assertTrue(shareBytes(placement(plan, 0, 1), placement(plan, 1, 1))
                || shareBytes(placement(plan, 0, 1), placement(plan, 1, 2))
                || shareBytes(placement(plan, 0, 2), placement(plan, 1, 1))
                || shareBytes(placement(plan, 0, 2), placement(plan, 1, 2)));
    }

    @Test
    void persistentArenasStayPerModel() {
        List<Graph> graphs = List.of(chain(4096), chain(2048));
        GroupPlan plan = GroupPlanner.plan(graphs, "tflite", LIMIT);
        for (Plan model : plan.models()) {
            SubgraphPlan primary = model.subgraphs().get(0);
            assertEquals(64, primary.persistentBytes());
            assertEquals(0, primary.placements().get(4).offset());
        }
    }

    @Test
    void aModelsOutputsAndInputsLiveToTheEndOfItsSpanAndNoFurther() {
        List<Graph> graphs = List.of(chain(4096), chain(4096));
        GroupPlan plan = GroupPlanner.plan(graphs, "tflite", LIMIT);
        Placement output = placement(plan, 0, 3);
        Placement input = placement(plan, 0, 0);
        // Within its own run nothing after it is produced takes its bytes...
        for (int tensor = 0; tensor < 4; tensor++) {
            if (tensor != 3) {
                Placement other = placement(plan, 0, tensor);
                assertTrue(!shareBytes(output, other) || other.last() < output.first(),
                        "tensor " + tensor + " overwrites the output");
            }
        }
        // ...and the next model, of the same size, can only fit by taking the first one's inputs and outputs.
        assertEquals(plan.largestAloneBytes(), plan.sharedBytes());
        boolean taken = false;
        for (int tensor = 0; tensor < 4; tensor++) {
            Placement next = placement(plan, 1, tensor);
            taken |= shareBytes(output, next) || shareBytes(input, next);
        }
        assertTrue(taken);
    }

    @Test
    void anRwVariableLivesTheWholeTimeline() {
        List<Graph> graphs = List.of(chainWithVariable(), chain(4096));
        GroupPlan plan = GroupPlanner.plan(graphs, "greedy-by-size", LIMIT);
        Placement variable = placement(plan, 0, 5);
        for (int tensor = 0; tensor < 4; tensor++) {
            assertTrue(!shareBytes(variable, placement(plan, 1, tensor)), "model 1's tensor " + tensor);
        }
        assertEquals(4096L * 2 + 256 + 512, plan.sharedBytes());
    }

    @Test
    void theValidatorRefusesTwoModelsOnTheSameLiveBytes() {
        List<Graph> graphs = List.of(chainWithVariable(), chain(4096));
        GroupPlan plan = GroupPlanner.plan(graphs, "greedy-by-size", LIMIT);
        long variableAt = placement(plan, 0, 5).offset();
        GroupPlan broken = move(plan, 1, 0, variableAt);
        String message = assertThrows(InvalidPlanException.class, () -> GroupPlanner.validate(graphs, broken, 64))
                .getMessage();
        assertEquals("the group's timeline: model 0, tensor 5 (t5) at bytes " + variableAt + ".." + (variableAt + 512)
                + ", live at steps 0..5 and model 1, tensor 0 (t0) at bytes " + variableAt + ".."
                + (variableAt + 256) + ", live at steps 3..5 share memory while both live", message);
    }

    @Test
    void theValidatorRefusesAnOverlapWithinAModelNamingTheModel() {
        List<Graph> graphs = List.of(chain(4096), chain(2048));
        GroupPlan plan = GroupPlanner.plan(graphs, "tflite", LIMIT);
        GroupPlan broken = move(plan, 1, 2, placement(plan, 1, 1).offset());
        String message = assertThrows(InvalidPlanException.class, () -> GroupPlanner.validate(graphs, broken, 64))
                .getMessage();
        assertTrue(message.startsWith("model 1: subgraph 0: tensors "), message);
    }

    @Test
    void anUnknownPlannerIsRefusedByName() {
        String message = assertThrows(IllegalArgumentException.class,
                () -> GroupPlanner.plan(List.of(chain(1024)), "nope", LIMIT)).getMessage();
        assertEquals("unknown planner 'nope'; valid: " + Planners.names(), message);
    }

    /** The plan with one tensor of one model moved to {@code offset}. */
    private static GroupPlan move(GroupPlan plan, int model, int tensor, long offset) {
        List<Plan> models = new ArrayList<>(plan.models());
        SubgraphPlan sp = models.get(model).subgraphs().get(0);
        List<Placement> placements = new ArrayList<>(sp.placements());
        placements.replaceAll(p -> p.tensor() != tensor ? p
                : new Placement(p.tensor(), p.arena(), offset, p.bytes(), p.first(), p.last(), p.aliasOf()));
        models.set(model, new Plan("edited", List.of(new SubgraphPlan(0, sp.arenaBytes(), sp.persistentBytes(),
                placements))));
        return new GroupPlan(plan.planner(), plan.sharedBytes(), models, plan.aloneBytes(), false);
    }
}
