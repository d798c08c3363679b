package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.render.PlanPicture.Box;
import dev.tflitearena.plan.render.PlanPicture.Panel;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanPictureTest {

    @Test
    void aGraphPlanShowsItsRwTensorsWithAliasesMarkedAndStatesThePersistentArena() {
        Graph graph = SampleGraphs.chain();
        Plan plan = new TflitePlanner().plan(graph);
        PlanPicture picture = PlanPicture.of(graph, plan);
        assertEquals("tflite plan", picture.title());
        Panel panel = picture.panels().get(0);
        assertEquals(4, panel.steps());
        assertEquals(plan.subgraphs().get(0).arenaBytes(), panel.arenaBytes());
        assertEquals(List.of("t0", "t1", "t2", "t3", "t4", "t5"), panel.boxes().stream().map(Box::label).toList());
        Box alias = panel.boxes().get(2);
        assertEquals("t1", alias.aliasOf());
        assertEquals(panel.boxes().get(1).offset(), alias.offset(), "drawn on its root");
        assertEquals(1, alias.first());
        assertEquals(2, alias.last());
        assertFalse(panel.boxes().get(1).alias());
        // Node 2 holds the pinned input, t1 (whose memory t2 took over) and t3.
        assertEquals(4000, panel.lowerBound());
        assertEquals((double) panel.arenaBytes() / 4000 - 1, panel.gap(), 1e-12);
        assertTrue(panel.caption().startsWith("planner tflite: arena "), panel.caption());
        assertTrue(panel.caption().contains("lower bound 3.9 KiB (4,000 B)"), panel.caption());
        assertTrue(panel.caption().endsWith("persistent arena 300 B for 1 tensor, not drawn"), panel.caption());
        assertEquals("subgraph 0 (main): 4 nodes, 6 rw tensors, 1 of them in place", panel.title());
    }

    @Test
    void thePeakIsTheNodeWhereTheLowerBoundIsMetWithTheTensorsLiveThereLargestFirst() {
        Graph graph = SampleGraphs.chain();
        PlanPicture.Peak peak = PlanPicture.of(graph, new TflitePlanner().plan(graph)).panels().get(0).peak();
        // Node 0 holds 3,512 B (with the temporary t5), node 1 3,000 B, node 2 4,000 B, node 3 2,500 B.
        assertEquals(2, peak.step());
        assertEquals("node 2 (OP2)", peak.where());
        assertEquals(4000, peak.bytes());
        assertEquals(List.of(
                        new PlanPicture.Live("t1", 2000, 0, 2, "node 0 (OP0)"),
                        new PlanPicture.Live("t0", 1000, 0, 3, "graph input"),
                        new PlanPicture.Live("t3", 1000, 2, 3, "node 2 (OP2)")),
                peak.live(), "t2 is in place on t1, counted once");
        assertEquals("nodes 0..2", peak.live().get(0).interval());
    }

    @Test
    void aTemporaryAtThePeakNamesItsNode() {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(100), out = g.tensor(100), temp = g.tensor(5000);
        g.node(ids(in), ids(out), ids(temp), 0).inputs(in).outputs(out);
        Graph graph = g.build();
        PlanPicture.Peak peak = PlanPicture.of(graph, new TflitePlanner().plan(graph)).panels().get(0).peak();
        assertEquals(new PlanPicture.Live("t2", 5000, 0, 0, "node 0 (OP0), temporary"), peak.live().get(0));
    }

    @Test
    void aBufferSetIsOnePanelLabelledByIds() {
        BufferSet set = new BufferSet(List.of(new BufferSet.Buffer(7, 100, 0, 1), new BufferSet.Buffer(9, 50, 1, 2)),
                3, 1);
        PlanPicture picture = PlanPicture.of("csv", set, new long[] {0, 100});
        Panel panel = picture.panels().get(0);
        assertEquals("csv", picture.title());
        assertEquals(List.of("7", "9"), panel.boxes().stream().map(Box::label).toList());
        assertNull(panel.boxes().get(0).aliasOf());
        assertEquals(150, panel.arenaBytes());
        assertEquals(150, panel.lowerBound());
        assertEquals("arena 150 B, lower bound 150 B, gap 0.0%", panel.caption());
        assertEquals("nodes 1..2", panel.boxes().get(1).interval());
        assertEquals(new PlanPicture.Peak(1, "step 1", List.of(new PlanPicture.Live("7", 100, 0, 1, ""),
                new PlanPicture.Live("9", 50, 1, 2, ""))), panel.peak());
        assertThrows(IllegalArgumentException.class, () -> PlanPicture.of("csv", set, new long[] {0}));
    }
}
