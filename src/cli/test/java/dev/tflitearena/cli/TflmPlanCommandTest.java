package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteModelBuilder;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.lite.schema.BuiltinOperator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** plan with TFLM's planners: a model's offline plan, a CSV's offline column, and TFLM's printout. */
class TflmPlanCommandTest {
    @TempDir
    Path temp;

    @Test
    void tflmGreedyKeepsTheModelsOfflinePlanAndPrintsAsTflmDoes() throws IOException {
        Path model = Files.write(temp.resolve("offline.tflite"), SampleModels.tflmOfflinePlan());
        Cli.Result json = run("plan", model.toString(), "--planner", "tflm-greedy", "--json");
        assertEquals(0, json.status(), json.err());
        JsonNode tensors = json.json().get("subgraphs").get(0).get("tensors");
        long[] offsets = new long[4];
        for (int t = 0; t < 4; t++) {
            offsets[tensors.get(t).get("index").asInt()] = tensors.get(t).get("offset").asLong();
        }
        // a at its offline 512; the rest online at TFLite's alignment of 64, where b and c tie at 128.
        assertEquals("[512, 640, 384, 0]", java.util.Arrays.toString(offsets));

        Cli.Result printed = run("plan", model.toString(), "--planner", "tflm-greedy", "--tflm-print");
        assertEquals(0, printed.status(), printed.err());
        assertEquals("""
                subgraph 0 (main): planner tflm-greedy, arena 748 bytes
                * (id=0): size=128, offset=512, first_used=0 last_used=0
                * (id=1): size=128, offset=640, first_used=0 last_used=0
                * (id=2): size=128, offset=384, first_used=0 last_used=0
                * (id=3): size=384, offset=0, first_used=0 last_used=0
                   0: %s (1k)
                """.formatted("*".repeat(80)), printed.out());
    }

    @Test
    void tflmLinearRefusesAnOfflinePlanAsTflmDoes() throws IOException {
        Path model = Files.write(temp.resolve("offline.tflite"), SampleModels.tflmOfflinePlan());
        Cli.Result r = run("plan", model.toString(), "--planner", "tflm-linear");
        assertEquals(Main.EXIT_ERROR, r.status());
        assertTrue(r.err().contains("holds an offline plan (OfflineMemoryAllocation), which TFLM's "
                + "LinearMemoryPlanner refuses"), r.err());
        Cli.Result greedy = run("plan", model.toString(), "--planner", "greedy-by-size", "--json");
        assertEquals(0, greedy.status(), "TFLite's planners ignore TFLM's metadata, as TFLite does: " + greedy.err());
    }

    @Test
    void anOfflinePlanOfTheWrongLengthIsRefusedNamingTheFile() throws IOException {
        TfliteModelBuilder builder = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = builder.subgraph("main");
        int x = main.tensor("x", TensorType.FLOAT32, 4);
        int y = main.tensor("y", TensorType.FLOAT32, 4);
        main.operator(BuiltinOperator.ABS, 1, new int[]{x}, new int[]{y}, null);
        main.inputs(x);
        main.outputs(y);
        builder.metadata(OfflineMemoryAllocation.NAME, OfflineMemoryAllocation.bytes(1, List.of(new int[]{0})));
        Path model = Files.write(temp.resolve("short.tflite"), builder.build());
        Cli.Result r = run("plan", model.toString(), "--planner", "tflm-greedy");
        assertEquals(Main.EXIT_ERROR, r.status());
        assertTrue(r.err().contains("short.tflite: metadata 'OfflineMemoryAllocation' (buffer 1): 1 offsets for the "
                + "model's 2 tensors (TFLM refuses that)"), r.err());
    }

    @Test
    void aCsvsOfflineColumnPlacesBuffersForTflmGreedyOnly() throws IOException {
        // TFLM's TestGreedyMedium, its last buffer offline at the 0 TFLM gives it anyway.
        Path csv = Files.writeString(temp.resolve("medium.csv"), """
                id,lower,upper,size,offline
                0,0,2,10,-1
                1,1,3,20,-1
                2,2,4,30,-1
                3,3,5,40,-1
                4,0,2,50,0
                """);
        Cli.Result r = run("plan", csv.toString(), "--planner", "tflm-greedy", "--tflm-print");
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                0 (id=0): size=10, offset=50, first_used=0 last_used=1
                1 (id=1): size=20, offset=70, first_used=1 last_used=2
                2 (id=2): size=30, offset=40, first_used=2 last_used=3
                3 (id=3): size=40, offset=0, first_used=3 last_used=4
                4 (id=4): size=50, offset=0, first_used=0 last_used=1
                   0: 44444444444444444444444444444444444444444444000000000........................... (1k)
                   1: 44444444444444444444444444444444444444444444000000000.........111111111111111111 (1k)
                   2: ...................................222222222222222222222222222111111111111111111 (1k)
                   3: 33333333333333333333333333333333333222222222222222222222222222.................. (1k)
                   4: 33333333333333333333333333333333333............................................. (1k)
                """, r.out());

        Cli.Result other = run("plan", csv.toString(), "--planner", "tflite");
        assertEquals(Main.EXIT_ERROR, other.status());
        assertTrue(other.err().contains("medium.csv: its offline column places buffers, which only tflm-greedy"),
                other.err());
        Cli.Result compare = run("compare-planners", csv.toString());
        assertEquals(Main.EXIT_ERROR, compare.status());
        assertTrue(compare.err().contains("buffers [4] have offline offsets, which only tflm-greedy places"),
                compare.err());

        Path clash = Files.writeString(temp.resolve("clash.csv"), "id,lower,upper,size,offline\n0,0,1,10,0\n1,0,1,10,5\n");
        Cli.Result clashing = run("plan", clash.toString(), "--planner", "tflm-greedy");
        assertEquals(Main.EXIT_ERROR, clashing.status());
        assertTrue(clashing.err().contains("clash.csv: the offline offsets do not fit: buffer 0 (bytes 0..10, "
                + "steps 0..0) and buffer 1 (bytes 5..15, steps 0..0) share memory while both live"), clashing.err());
        Cli.Result negative = run("plan", Files.writeString(temp.resolve("negative.csv"),
                "id,lower,upper,size,offline\n0,0,1,10,-2\n").toString(), "--planner", "tflm-greedy");
        assertEquals(Main.EXIT_ERROR, negative.status());
        assertTrue(negative.err().contains("line 2: offline offset -2 is neither -1 (none) nor an offset"),
                negative.err());
    }

    @Test
    void theTflmPrintoutIsText() throws IOException {
        Path csv = Files.writeString(temp.resolve("b.csv"), "id,lower,upper,size\n0,0,1,8\n");
        Cli.Result r = run("plan", csv.toString(), "--tflm-print", "--json");
        assertEquals(Main.EXIT_ERROR, r.status());
        assertTrue(r.err().contains("--tflm-print prints a plan as text: not with --json"), r.err());
    }
}
