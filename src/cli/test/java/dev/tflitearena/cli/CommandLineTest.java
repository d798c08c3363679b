package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.presets.NativeRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
        assertTrue(planner.err().contains("unknown planner 'magic'; valid: tflite, tflm-greedy, tflm-linear, "
                + "greedy-by-size, greedy-by-breadth, best-of, optimal\n"), planner.err());
    }

    @Test
    void anUnknownPlannerListsNativeWhereTheCommandTakesIt() {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        for (String command : new String[]{"run", "memory"}) {
            Cli.Result r = run(command, model, "--planner", "magic");
            assertEquals(Main.EXIT_ERROR, r.status());
            assertTrue(r.err().contains("unknown planner 'magic'; valid: tflite, tflm-greedy, tflm-linear, "
                    + "greedy-by-size, greedy-by-breadth, best-of, optimal, native\n"), r.err());
        }
    }

    @Test
    void theExtensionSaysWhatAnInputIsAndAnUnknownOneIsRefused() throws IOException {
        Path notes = Files.writeString(temp.resolve("notes.md"), "# not a model\n");
        String graphsAndBuffers = ": the extension says what a file is, and this command reads .tflite (a TFLite "
                + "model), .json (graph JSON) or .csv (a MiniMalloc buffer set)";
        for (String command : new String[]{"plan", "compare-planners"}) {
            Cli.Result r = run(command, notes.toString());
            assertEquals(Main.EXIT_ERROR, r.status());
            assertEquals("tflite-arena " + command + ": " + notes + graphsAndBuffers, r.err().strip());
        }
        Cli.Result snapshot = run("snapshot", notes.toString());
        assertEquals("tflite-arena snapshot: " + notes + ": the extension says what a file is, and this command "
                + "reads .tflite (a TFLite model) or .json (graph JSON)", snapshot.err().strip());

        Path csv = Files.writeString(temp.resolve("buffers.CSV"), "id,lower,upper,size\n0,0,2,64\n");
        Cli.Result buffers = run("plan", csv.toString(), "--json");
        assertEquals(0, buffers.status(), buffers.err());
        assertEquals(64, buffers.json().get("arena_bytes").asLong());
    }

    @Test
    void planSaysWhereItWroteTheSvg() throws IOException {
        Path graph = Files.writeString(temp.resolve("good.json"), """
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 4, "allocation": "arena_rw"}], "nodes": []}]}""");
        Path svg = temp.resolve("plan.svg");
        Cli.Result text = run("plan", graph.toString(), "--svg", svg.toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().endsWith("SVG picture written to " + svg + "\n"), text.out());
        assertTrue(Files.readString(svg).contains("<svg"));

        Cli.Result json = run("plan", graph.toString(), "--svg", svg.toString(), "--json");
        assertEquals(svg.toString(), json.json().get("svg").asText());
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
        assertTrue(json.get("java_arena_bytes").asLong() > 0);
        assertTrue(json.get("java_persistent_bytes").asLong() > 0);
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
    void runWithXnnpackThreadsUsesTheProjectsDelegate() throws IOException {
        Cli.Result r = run("run", TestModels.named("face_detection_short_range.tflite").toString(), "--xnnpack",
                "--xnnpack-threads", "2", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.json().get("outputs_identical").asBoolean());
        assertEquals("BuiltinOpResolverWithoutDefaultDelegates + XNNPACK delegate, 2 threads",
                r.json().get("resolver").asText());
    }

    @Test
    void xnnpackThreadsWithoutXnnpackOrBelowOneAreRefused() {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        Cli.Result alone = run("compare", model, "--xnnpack-threads", "2");
        assertEquals(2, alone.status());
        assertTrue(alone.err().contains("--xnnpack-threads 2 needs --xnnpack"), alone.err());
        Cli.Result zero = run("compare", model, "--xnnpack", "--xnnpack-threads", "0");
        assertEquals(2, zero.status());
        assertTrue(zero.err().contains("--xnnpack-threads must be at least 1; got 0"), zero.err());
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
        ArenaFields.assertNamed(json, "native_arena_bytes", "arena_bytes");
        assertTrue(Files.readString(temp.resolve("demo.html")).contains("<svg"));
        assertTrue(Files.exists(temp.resolve("demo_float32.svg")));
    }

    @Test
    void demoPageShowsTheTerminalsLedgerAndATableAndPicturePerVersion() throws IOException {
        Cli.Result r = run("demo", "--out", temp.toString());
        assertEquals(0, r.status(), r.err());
        String html = Files.readString(temp.resolve("demo.html"));
        String ledger = r.out().substring(r.out().indexOf("\nledger "));
        int rows = 0;
        for (String line : ledger.strip().split("\n")) {
            if (line.startsWith("ledger") || line.isBlank() || !line.contains("KiB)")) {
                continue;
            }
            String label = line.substring(0, line.indexOf("  ", 2)).strip();
            String[] figures = line.substring(label.length() + 2).strip().split(" {2,}");
            String row = "<td class=\"label\">" + (line.startsWith("  ") ? "  " : "") + label.replace("'", "&#39;")
                    + "</td><td class=\"number\">" + figures[0] + "</td><td class=\"number\">" + figures[1] + "</td>";
            assertTrue(html.contains(row), row);
            rows++;
        }
        assertEquals(12, rows, "naive, measured naive, live peak, lower bound, native and seven Java planners");
        assertTrue(html.contains("<h2>float32</h2>") && html.contains("<h2>int8</h2>"), html);
        assertTrue(html.contains(">demo_float32: tflite plan</text>"), "the picture names planner and version");
        assertTrue(html.contains(">demo_int8: tflite plan</text>"));
        assertEquals(2 * 7, html.split("<tr class=\"best\">", -1).length - 1,
                "in each version native and every Java planner but tflm-linear (which reuses nothing) reach the "
                        + "lower bound");
        assertFalse(html.contains("<tr class=\"best\"><td>tflm-linear"));
        assertEquals(2, html.split("not measured", -1).length - 1, "the native row of each version");
        assertTrue(html.contains("TFLite " + NativeRelease.version() + ", planned under "), html);
        assertTrue(html.contains("Peak of the lower bound: node 1 (GATHER_ND), 1.7 MiB (1,806,336 B) live in 3 "
                + "buffers"), html);
    }

    @Test
    void reportPageNamesTheReleaseAndResolverAndDoesNotTimeTheNativePlan() throws IOException {
        Cli.Result r = run("report", TestModels.named("face_detection_short_range.tflite").toString(), "--out",
                temp.toString(), "--time-limit", "2");
        assertEquals(0, r.status(), r.err());
        String html = Files.readString(temp.resolve("report.html"));
        assertTrue(html.contains("<p class=\"provenance\">TFLite " + NativeRelease.version() + ", planned under "
                + NativeRelease.loaded().version() + "&#39;s rules; resolver "
                + "BuiltinOpResolverWithoutDefaultDelegates; "), html);
        String nativeRow = html.substring(html.indexOf("<td>native</td>"));
        nativeRow = nativeRow.substring(0, nativeRow.indexOf("</tr>"));
        assertTrue(nativeRow.contains("<td class=\"number unmeasured\">not measured</td>"), nativeRow);
        assertFalse(nativeRow.contains(" ms<"), nativeRow);
        assertTrue(html.contains("<table class=\"peak\">"), html);
        assertTrue(html.contains("<td>input</td>"), "the graph input is live at the peak");
    }

    @Test
    void everyCommandTakesQuietAndVerbose() {
        for (String command : Main.commandLine().getSubcommands().keySet()) {
            CommandLine.ParseResult parsed = Main.commandLine().parseArgs(command, "--quiet", "--verbose", "--help");
            assertTrue(parsed.subcommand().hasMatchedOption("--quiet"), command);
            assertTrue(parsed.subcommand().hasMatchedOption("--verbose"), command);
        }
    }

    @Test
    void aParameterErrorIsOneLineThatSaysWhereTheHelpIs() {
        Cli.Result unknown = run("plan", "x.tflite", "--foo");
        assertEquals(Main.EXIT_ERROR, unknown.status());
        assertEquals("", unknown.out());
        assertEquals("tflite-arena plan: Unknown option: '--foo'; did you mean '--for'? (see 'tflite-arena plan "
                + "--help')", unknown.err().strip());
        Cli.Result misspelt = run("compar", "x.tflite");
        assertEquals(Main.EXIT_ERROR, misspelt.status());
        assertTrue(misspelt.err().strip().startsWith("tflite-arena: Unmatched arguments from index 0: 'compar', "
                + "'x.tflite'; did you mean 'compare'"), misspelt.err());
        assertEquals(1, misspelt.err().strip().lines().count(), misspelt.err());
        Cli.Result missing = run("plan");
        assertEquals("tflite-arena plan: Missing required parameter: 'GRAPH.json|MODEL.tflite|FILE.csv' (see "
                + "'tflite-arena plan --help')", missing.err().strip());
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
