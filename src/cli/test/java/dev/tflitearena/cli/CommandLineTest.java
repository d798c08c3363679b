package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandLineTest {
    @TempDir
    Path temp;

    private static Cli.Result run(String... args) {
        return Cli.run(args);
    }

    @Test
    void commandsThatHandAModelToNativeCodeRunInAChildJvmTheOthersHere() {
        assertTrue(Main.supervised("compare", "m.tflite"));
        assertTrue(Main.supervised("--json", "run", "m.tflite"));
        assertFalse(Main.supervised("inspect", "m.tflite"));
        assertFalse(Main.supervised("fuzz-models"));
        assertFalse(Main.supervised("bench", "--quick"));
        assertFalse(Main.supervised("--version"));
    }

    @Test
    void compareJsonReportsAnIdenticalPlan() throws IOException {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        Cli.Result r = run("compare", model, "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertTrue(json.get("identical").asBoolean());
        assertEquals(model, json.get("model").asText());
        JsonNode s = json.get("subgraphs").get(0);
        assertEquals(0, s.get("mismatches").asInt());
        assertEquals(s.get("native_arena_bytes").asLong(), s.get("java_arena_bytes").asLong());
        assertEquals(1769472, s.get("native_arena_bytes").asLong());
        assertEquals(s.get("native_persistent_bytes").asLong(), s.get("java_persistent_bytes").asLong());
        assertTrue(s.get("tensors_compared").asInt() > 100);
    }

    @Test
    void compareTextEndsWithTheVerdict() {
        Cli.Result r = run("compare", TestModels.named("hand_landmark_lite.tflite").toString(), "--preserve-all-tensors");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().strip().endsWith("identical"), r.out());
    }

    @Test
    void anUnknownCustomOpAndATruncatedModelFailWithTheirNames() throws IOException {
        Cli.Result custom = run("compare", TestModels.named("selfie_segmentation.tflite").toString());
        assertEquals(Main.EXIT_ERROR, custom.status());
        assertTrue(custom.err().contains("custom op 'Convolution2DTransposeBias'"), custom.err());

        byte[] bytes = Files.readAllBytes(TestModels.named("pose_landmark_lite.tflite"));
        Path truncated = Files.write(temp.resolve("pose_truncated.tflite"), Arrays.copyOf(bytes, 100_000));
        Cli.Result cut = run("plan", truncated.toString());
        assertEquals(Main.EXIT_ERROR, cut.status());
        assertTrue(cut.err().contains(truncated + ": not a valid TFLite model"), cut.err());
    }

    @Test
    void planOfGraphJsonListsOffsetsAliasesAndNulls() throws IOException {
        Path graph = Files.writeString(temp.resolve("graph.json"), """
                {"format": "tflite-arena-graph", "version": 1,
                 "options": {"tensor_alignment": 64, "preserve_all_tensors": false},
                 "subgraphs": [{"index": 0, "inputs": [0], "outputs": [3], "variables": [],
                   "tensors": [{"index": 0, "name": "in", "bytes": 400, "allocation": "arena_rw"},
                               {"index": 1, "name": "a", "bytes": 400, "allocation": "arena_rw"},
                               {"index": 2, "name": "view", "bytes": 400, "allocation": "arena_rw"},
                               {"index": 3, "name": "out", "bytes": 400, "allocation": "arena_rw"},
                               {"index": 4, "name": "empty", "bytes": 0, "allocation": "arena_rw"},
                               {"index": 5, "name": "weights", "bytes": 16, "allocation": "mmap_ro"}],
                   "nodes": [{"op": "ADD", "inputs": [0, 5], "outputs": [1], "temporaries": [4], "inplace": 0},
                             {"op": "RESHAPE", "inputs": [1], "outputs": [2], "inplace": 5},
                             {"op": "MUL", "inputs": [2], "outputs": [3], "inplace": 0}]}]}""");
        Cli.Result r = run("plan", graph.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertEquals("tflite", json.get("planner").asText());
        JsonNode s = json.get("subgraphs").get(0);
        JsonNode tensors = s.get("tensors");
        assertEquals(5, tensors.size(), "arena tensors only");
        assertEquals(1, tensors.get(2).get("alias_of").asInt());
        assertEquals(tensors.get(1).get("offset").asLong(), tensors.get(2).get("offset").asLong());
        assertTrue(tensors.get(4).get("offset").isNull());
        assertEquals("rw", tensors.get(0).get("arena").asText());
        assertEquals(0, tensors.get(0).get("first").asInt());
        assertEquals(2, tensors.get(0).get("last").asInt());
        assertEquals(448, tensors.get(1).get("offset").asLong());
        assertEquals(896, tensors.get(3).get("offset").asLong());
        assertEquals(1296, s.get("arena_bytes").asLong());
    }

    @Test
    void badGraphJsonAndUnknownPlannerAreErrorsNamingTheProblem() throws IOException {
        Path graph = Files.writeString(temp.resolve("bad.json"), """
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 4, "allocation": "arena_rw"}],
                  "nodes": [{"op": "ADD", "inputs": [0, 3], "outputs": [0]}]}]}""");
        Cli.Result bad = run("plan", graph.toString());
        assertEquals(Main.EXIT_ERROR, bad.status());
        assertTrue(bad.err().contains("subgraph 0, node 0 (ADD): inputs[1] is 3"), bad.err());

        Path good = Files.writeString(temp.resolve("good.json"), """
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 4, "allocation": "arena_rw"}], "nodes": []}]}""");
        Cli.Result planner = run("plan", good.toString(), "--planner", "magic");
        assertEquals(Main.EXIT_ERROR, planner.status());
        assertTrue(planner.err().contains("unknown planner 'magic'; valid: tflite"), planner.err());
    }

    @Test
    void runJsonReportsIdenticalOutputsAndTheArenas() throws IOException {
        Cli.Result r = run("run", TestModels.named("hand_landmark_lite.tflite").toString(), "--json", "--invokes", "2",
                "--seed", "5", "--poison");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertTrue(json.get("outputs_identical").asBoolean());
        assertEquals("tflite", json.get("planner").asText());
        assertFalse(json.get("xnnpack").asBoolean());
        assertEquals(2, json.get("invokes").asInt());
        assertEquals(0, json.get("native_arena_bytes_left").asLong());
        assertTrue(json.get("java_arena_bytes").asLong() > json.get("persistent_bytes").asLong());
        assertTrue(json.has("persistent_bytes"));
    }

    @Test
    void runWithTheNativePlannerComparesTwoNativeInterpreters() throws IOException {
        Cli.Result r = run("run", TestModels.named("face_detection_short_range.tflite").toString(), "--planner", "native",
                "--xnnpack", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.json().get("outputs_identical").asBoolean());
        assertTrue(r.json().get("xnnpack").asBoolean());
        assertEquals(r.json().get("reference_native_arena_bytes").asLong(),
                r.json().get("native_arena_bytes_left").asLong());
    }

    @Test
    void demoJsonReportsTheLedgerMeasuredByTheNativeInterpreter() throws IOException {
        Cli.Result r = run("demo", "--json", "--out", temp.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertEquals(2_011_040, json.get("naive_bytes").asLong());
        assertEquals(2_011_040, json.get("native_naive_bytes").asLong());
        assertEquals(1_404_928, json.get("peak_live_bytes").asLong());
        assertEquals(1_806_336, json.get("lower_bound_bytes").asLong());
        assertEquals(1_806_336, json.get("native_arena_bytes").asLong());
        assertEquals(5, json.get("tensors").size());
        for (JsonNode planner : json.get("planners")) {
            assertTrue(planner.get("arena_bytes").asLong() >= 1_806_336, planner.toString());
        }
        assertEquals("tflite", json.get("planners").get(0).get("name").asText());
        assertEquals(451_584, json.get("int8").get("native_arena_bytes").asLong());
        assertTrue(Files.readString(temp.resolve("demo.html")).contains("<svg"));
        assertTrue(Files.exists(temp.resolve("demo_float32.svg")));
    }

    @Test
    void everyCommandHasHelp() {
        for (String command : new String[]{"demo", "plan", "compare", "run", "snapshot", "inspect"}) {
            Cli.Result r = run(command, "--help");
            assertEquals(0, r.status());
            assertTrue(r.out().contains("Usage: tflite-arena " + command), r.out());
        }
    }

    @Test
    void benchWithoutTheBenchmarksJarSaysHowToBuildIt() {
        // The tests run from the module's classes, beside which no tflite-arena-bench.jar is ever built.
        Cli.Result r = run("bench", "--quick");
        assertEquals(Main.EXIT_ERROR, r.status());
        assertTrue(r.err().contains(BenchLauncher.JAR + " is missing") && r.err().contains("mvn package"), r.err());
    }
}
