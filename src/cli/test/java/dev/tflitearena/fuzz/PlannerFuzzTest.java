package dev.tflitearena.fuzz;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import dev.tflitearena.progress.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The differential test itself: random graphs, native against Java, and the shrinker on a planted bug. */
class PlannerFuzzTest {
    private static final long SEED = 20_250_612L;

    @Test
    void aThousandRandomGraphsArePlannedAsTheNativePlannerPlansThem() throws InterruptedException {
        PlannerFuzz.Report report = PlannerFuzz.run(PlannerFuzz.Settings.of(1000, SEED, Duration.ofMillis(200)),
                Progress.NONE);
        System.out.printf("fuzz-planner --graphs 1000 --seed %d: %d graphs, %d tensors compared, %d mismatches, "
                        + "%d validator failures, %d errors, %.1f s%n", SEED, report.graphs(), report.tensorsCompared(),
                report.mismatches(), report.validatorFailures(), report.errors(), report.elapsed().toMillis() / 1000.0);
        assertEquals(1000, report.graphs());
        assertTrue(report.tensorsCompared() > 10 * report.graphs(), "tensors compared: " + report.tensorsCompared());
        assertTrue(report.clean(), () -> report.failures().stream().limit(5).map(f -> "graph " + f.index() + ": "
                + f.finding().describe()).toList().toString());
    }

    @Test
    void aPlantedMismatchShrinksToOneNodeAndItsTemporary(@TempDir Path out) throws Exception {
        PlannerFuzz.Settings settings = PlannerFuzz.Settings.of(40, SEED, Duration.ofMillis(50))
                .withReference(TemporariesOneLineUp::new).withValidated(List::of).withOut(out);
        PlannerFuzz.Report report = PlannerFuzz.run(settings, Progress.NONE);
        assertTrue(report.mismatches() > 0, "the planted bug went unnoticed");
        PlannerFuzz.Failure first = report.failures().get(0);
        Graph minimal = first.shrunk();
        assertEquals(1, minimal.subgraphs().size());
        Subgraph s = minimal.subgraphs().get(0);
        assertEquals(1, s.nodes().size());
        Node node = s.nodes().get(0);
        assertEquals(1, node.temporaries().length);
        assertEquals(0, node.inputs().length + node.outputs().length + node.intermediates().length);
        assertEquals(1, s.tensors().size(), "only the temporary is left");
        assertEquals(1, s.tensor(0).bytes(), "sizes are halved while the failure stays");
        assertEquals(GraphJson.toJson(minimal), GraphJson.toJson(GraphJson.read(first.saved())));
        String note = Files.readString(Path.of(first.saved().toString().replace(".json", ".txt")));
        assertTrue(note.contains("fuzz-planner --replay " + first.saved()), note);
    }

    @Test
    void aGraphIsAFunctionOfItsSeedAndAValidGraph() {
        for (long i = 0; i < 200; i++) {
            long seed = RandomGraphs.graphSeed(SEED, i);
            String json = GraphJson.toJson(RandomGraphs.generate(seed));
            assertEquals(json, GraphJson.toJson(RandomGraphs.generate(seed)));
            assertEquals(json, GraphJson.toJson(GraphJson.parse(json)), "graph JSON reading accepts it as it is");
        }
        assertNotEquals(GraphJson.toJson(RandomGraphs.generate(1)), GraphJson.toJson(RandomGraphs.generate(2)));
    }

    /** TFLite's planner with a planted bug: every temporary that has memory sits 64 bytes higher. */
    private static final class TemporariesOneLineUp implements Planner {
        @Override
        public String name() {
            return "temporaries-one-line-up";
        }

        @Override
        public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
            SubgraphPlan plan = new TflitePlanner().plan(subgraph, options);
            List<Placement> moved = plan.placements().stream().map(p -> isTemporary(subgraph, p.tensor())
                    && p.hasMemory() ? new Placement(p.tensor(), p.arena(), p.offset() + 64, p.bytes(), p.first(),
                    p.last(), p.aliasOf()) : p).toList();
            return new SubgraphPlan(plan.subgraph(), plan.arenaBytes(), plan.persistentBytes(), moved);
        }

        private static boolean isTemporary(Subgraph subgraph, int tensor) {
            return subgraph.nodes().stream().anyMatch(n -> Arrays.stream(n.temporaries()).anyMatch(t -> t == tensor));
        }
    }
}
