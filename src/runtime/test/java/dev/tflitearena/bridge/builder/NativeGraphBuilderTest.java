package dev.tflitearena.bridge.builder;

import dev.tflitearena.bridge.builder.NativeGraphBuilder;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.ClassicChain;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Graphs built in code inside the native interpreter, on no-op kernels. */
class NativeGraphBuilderTest {

    private static long[] offsets(SubgraphPlan plan) {
        return plan.placements().stream().mapToLong(Placement::offset).toArray();
    }

    @Test
    void theChainIsPlacedAsTfliteAlwaysPlacesIt() {
        NativeGraphBuilder.Result built = NativeGraphBuilder.plan(ClassicChain.graph());
        SubgraphPlan plan = built.nativePlan().subgraphs().get(0);
        // The input stays at 0 for the whole run; the two largest outputs stack above it, and the last two
        // reuse the space of the first output once it is dead.
        assertArrayEquals(new long[]{0, 602_112, 1_404_928, 602_112, 802_816}, offsets(plan));
        assertEquals(1_806_336, plan.arenaBytes());
        assertTrue(built.compareWith(new TflitePlanner()).identical());
    }

    @Test
    void everySubgraphIsAllocatedNotOnlyThePrimaryOne() {
        Subgraph main = ClassicChain.graph().subgraphs().get(0);
        Subgraph second = new Subgraph(1, "second", main.tensors(), main.nodes(), main.inputs(), main.outputs(),
                main.variables());
        NativeGraphBuilder.Result built = NativeGraphBuilder.plan(new Graph(Graph.Options.DEFAULT, List.of(main, second)));
        assertEquals(2, built.nativePlan().subgraphs().size());
        assertArrayEquals(offsets(built.nativePlan().subgraphs().get(0)), offsets(built.nativePlan().subgraphs().get(1)));
        assertEquals("second", built.snapshot().subgraphs().get(1).name());
    }

    @Test
    void prepareDeclaresTemporariesAndTurnsTensorsPersistentAndFlagsShareInPlace() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(1000), scratch = g.tensor(4096), state = g.tensor(100, Allocation.ARENA_RW_PERSISTENT);
        int mid = g.tensor(1000), kept = g.tensor(300, Allocation.ARENA_RW_PERSISTENT), shared = g.tensor(1000);
        int out = g.tensor(1000);
        g.node(ids(in), ids(mid, kept), ids(scratch, state), Inplace.NONE)
                .node(ids(mid), ids(shared), ids(), Inplace.INPUT0_SHARED)
                .node(ids(shared), ids(out)).inputs(in).outputs(out);
        NativeGraphBuilder.Result built = NativeGraphBuilder.plan(g.build());
        Subgraph snapshot = built.snapshot().subgraphs().get(0);
        assertArrayEquals(ids(scratch, state), snapshot.nodes().get(0).temporaries());
        assertEquals(Allocation.ARENA_RW_PERSISTENT, snapshot.tensor(state).allocation());
        assertEquals(Allocation.ARENA_RW_PERSISTENT, snapshot.tensor(kept).allocation());
        assertEquals(Inplace.INPUT0_SHARED, snapshot.nodes().get(1).inplace());
        SubgraphPlan plan = built.nativePlan().subgraphs().get(0);
        // rw: the whole-lifetime input at 0; then by size the scratch above it, mid above both; shared sits on
        // mid in place; out reuses the scratch's gap. Persistent: kept, never consumed, lives from node 0 to
        // the end and so comes first; the temporary state follows at the next 64-byte boundary.
        assertArrayEquals(new long[]{0, 1024, 320, 5120, 0, 5120, 1024}, offsets(plan));
        assertEquals(6120, plan.arenaBytes());
        assertEquals(420, plan.persistentBytes());
        assertTrue(built.compareWith(new TflitePlanner()).identical());
    }

    @Test
    void refusesWhatTheRuntimeCannotBeGiven() {
        GraphBuilder aligned16 = new GraphBuilder();
        aligned16.tensor(10);
        aligned16.options(16, false);
        assertThrows(IllegalArgumentException.class, () -> NativeGraphBuilder.plan(aligned16.build()));
        GraphBuilder dynamic = new GraphBuilder();
        dynamic.tensor(10, Allocation.DYNAMIC);
        assertThrows(IllegalArgumentException.class, () -> NativeGraphBuilder.plan(dynamic.build()));
    }
}
