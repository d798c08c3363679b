package dev.tflitearena.release.compare;

import dev.tflitearena.release.Regression;
import dev.tflitearena.release.compare.RoundReport.ModelRound;
import dev.tflitearena.release.compare.RoundReport.NodeTime;
import dev.tflitearena.release.compare.RoundReport.Plans;
import dev.tflitearena.release.compare.RoundReport.TensorPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InterleavedAnalysisTest {
    private static final ReleaseComparison.Side A = new ReleaseComparison.Side("2.15", "a.jar", "2.15.0", "2.15", "m");
    private static final ReleaseComparison.Side B = new ReleaseComparison.Side("2.20", "b.jar", "2.20.0", "2.20", "m");

    /** Side {@code release}'s rounds: model "slow" {@code factor} times the time of "same", with noise. */
    private static List<RoundReport> rounds(String release, double factor, double convFactor, Random random,
                                            Plans plans) {
        List<RoundReport> rounds = new ArrayList<>();
        for (int r = 0; r < 12; r++) {
            double machine = 1 + 0.2 * random.nextDouble();
            double conv = 4 * convFactor * machine * noise(random);
            double add = 1 * machine * noise(random);
            ModelRound slow = new ModelRound("slow.tflite", null, (conv + add) * factor / convFactor, 0.2 * machine,
                    0.05 * machine * noise(random), Map.of("CONV_2D", conv, "ADD", add),
                    List.of(new NodeTime(0, 0, "CONV_2D", conv * 0.9), new NodeTime(0, 1, "CONV_2D", conv * 0.1),
                            new NodeTime(0, 2, "ADD", add)), r == 11 ? plans : null);
            ModelRound same = new ModelRound("same.tflite", null, 10 * machine * noise(random), 0.2 * machine,
                    0.05 * machine, null, null, null);
            rounds.add(new RoundReport(RoundReport.FORMAT, RoundReport.VERSION, release + ".0", release,
                    "BuiltinOpResolverWithoutDefaultDelegates", -1, 2, 5,
                    List.of(slow, same, ModelRound.failed("custom.tflite", "needs a custom op"))));
        }
        return rounds;
    }

    private static double noise(Random random) {
        return Math.exp(0.01 * random.nextGaussian());
    }

    private static Plans plans(String otherRules, long offset, long bytes) {
        List<TensorPlacement> placements = List.of(new TensorPlacement(0, 0, "input", "rw", 0, 64, 0, 1),
                new TensorPlacement(0, 1, "conv", "rw", offset, bytes, 0, 2));
        return new Plans(2, offset + bytes, 0, offset + bytes + 128, 128, placements, otherRules,
                List.of(placements.get(0), new TensorPlacement(0, 1, "conv", "rw", 128, 64, 0, 2)));
    }

    private static ReleaseComparison compare() {
        Random random = new Random(3);
        return InterleavedAnalysis.compare(A, B, rounds("2.15", 1, 1, random, plans("2.20", 64, 64)),
                rounds("2.20", 1.2, 1.25, random, plans("2.15", 128, 64)), List.of("A", "B", "B", "A"), 0.95,
                List.of(new ReleaseComparison.NotCompared("neither.tflite", "subgraph 0, node 3 needs the custom op "
                        + "'X' (version 1), which neither side's resolver provides")));
    }

    @Test
    void aSlowerModelAndItsOpAreFoundWithIntervals() {
        ReleaseComparison c = compare();
        ReleaseComparison.Comparison slow = c.comparisons().stream()
                .filter(x -> x.model().equals("slow.tflite") && x.metric().equals("invoke")).findFirst().orElseThrow();
        assertEquals("slower", slow.verdict());
        assertTrue(slow.lo() > 1.15 && slow.hi() < 1.25, slow.toString());
        ReleaseComparison.Comparison same = c.comparisons().stream()
                .filter(x -> x.model().equals("same.tflite") && x.metric().equals("invoke")).findFirst().orElseThrow();
        assertEquals("no_change", same.verdict());
        ReleaseComparison.OpComparison conv = c.ops().stream().filter(o -> o.op().equals("CONV_2D")).findFirst()
                .orElseThrow();
        assertEquals("slower", conv.verdict());
        assertEquals(List.of(0, 1), conv.nodes().stream().map(ReleaseComparison.NodeComparison::node).toList(),
                "the node that changed most first");
        ReleaseComparison.OpComparison add = c.ops().stream().filter(o -> o.op().equals("ADD")).findFirst().orElseThrow();
        assertEquals("no_change", add.verdict());
        assertTrue(add.nodes().isEmpty());
        assertEquals(List.of(new ReleaseComparison.NotCompared("custom.tflite",
                "side A cannot run it: needs a custom op")), c.notCompared());
    }

    @Test
    void aMovedTensorNamesTheRuleBehindIt() {
        ReleaseComparison c = compare();
        assertEquals(1, c.arenas().size());
        ReleaseComparison.ArenaChange change = c.arenas().get(0);
        assertEquals(128, change.a().arenaBytes());
        assertEquals(192, change.b().arenaBytes());
        assertEquals(1, change.moved().size());
        ReleaseComparison.MovedTensor moved = change.moved().get(0);
        assertEquals("conv", moved.name());
        assertTrue(moved.why().startsWith("B's planner rules place it so (outputs share under"), moved.why());
        assertEquals(List.of("outputs share under preserve_all_tensors: true -> false",
                "an arena buffer's bytes beyond its plan: 128 -> 0",
                "a RESHAPE whose shape an op computes returns kTfLiteOutputShapeNotKnown: false -> true"),
                c.rulesChanged());
    }

    @Test
    void regressGatesOnTheIntervalsLowerEnd() {
        ReleaseComparison c = compare();
        List<String> findings = ComparisonRegressions.find(c, Double.POSITIVE_INFINITY, 10, false).stream()
                .map(Regression.Finding::toString).toList();
        assertTrue(findings.stream().anyMatch(f -> f.startsWith("slow.tflite: invoke slower by 2")), findings::toString);
        assertTrue(findings.contains("custom.tflite: not compared: side A cannot run it: needs a custom op"),
                findings::toString);
        assertTrue(ComparisonRegressions.find(c, Double.POSITIVE_INFINITY, 30, false).stream()
                .noneMatch(f -> f.what().startsWith("invoke")), "a slowdown below the limit passes");
        assertTrue(ComparisonRegressions.find(c, 0, 30, false).stream()
                .anyMatch(f -> f.what().startsWith("rw arena 128 bytes -> 192 bytes")));
        assertTrue(findings.stream().noneMatch(f -> f.startsWith("neither.tflite")), "not runnable is not gated");
        assertTrue(ComparisonRegressions.find(c, Double.POSITIVE_INFINITY, 30, true).stream().map(Object::toString)
                .anyMatch(f -> f.startsWith("neither.tflite: neither side can run it: subgraph 0, node 3 needs")));
    }

    @Test
    void theFileReadsBackAndRendersAsMarkdownAndHtml(@TempDir Path temp) throws Exception {
        ReleaseComparison c = compare();
        Path file = temp.resolve("comparison.json");
        Files.writeString(file, c.toJson());
        assertEquals(c, ReleaseComparison.read(file));
        String md = ComparisonTable.markdown(c);
        assertTrue(md.contains("| slow.tflite |"), md);
        assertTrue(md.contains("CONV_2D"), md);
        assertTrue(md.contains("subgraph 0 tensor 1 (conv): rw @64, 64 bytes, nodes 0-2 -> rw @128, 64 bytes, "
                + "nodes 0-2: B's planner rules"), md);
        String html = ComparisonPage.html(c);
        assertTrue(html.contains("<svg") && html.contains("slow.tflite") && html.endsWith("</html>\n"));
    }

    @Test
    void aReleaseAgainstItselfIsFlaggedInAtMostOneRunInTwenty() {
        // 200 runs of 12 models, both sides alike: the intervals of a run hold together at 95%.
        Random random = new Random(11);
        int runsFlagged = 0;
        for (int run = 0; run < 200; run++) {
            List<RoundReport> a = new ArrayList<>();
            List<RoundReport> b = new ArrayList<>();
            for (int r = 0; r < 10; r++) {
                double machine = 1 + 0.3 * random.nextDouble();
                List<ModelRound> ma = new ArrayList<>();
                List<ModelRound> mb = new ArrayList<>();
                for (int m = 0; m < 12; m++) {
                    ma.add(new ModelRound("m" + m, null, machine * noise(random) * (m + 1), null, null, null, null, null));
                    mb.add(new ModelRound("m" + m, null, machine * noise(random) * (m + 1), null, null, null, null, null));
                }
                a.add(new RoundReport(RoundReport.FORMAT, 1, "2.20.0", "2.20", "r", -1, 1, 3, ma));
                b.add(new RoundReport(RoundReport.FORMAT, 1, "2.20.0", "2.20", "r", -1, 1, 3, mb));
            }
            ReleaseComparison c = InterleavedAnalysis.compare(A, A, a, b, List.of(), 0.95, List.of());
            if (c.comparisons().stream().anyMatch(x -> !x.verdict().equals("no_change"))) {
                runsFlagged++;
            }
        }
        assertTrue(runsFlagged <= 10 + 9, runsFlagged + " of 200 runs flagged a change");
    }
}
