package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.cli.output.PlanReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --release-inputs on plan, compare-planners, report, run and memory. */
class ReleaseInputsCommandsTest {
    private static final String MODEL = TestModels.named("face_detection_short_range.tflite").toString();

    @TempDir
    Path temp;

    private static JsonNode json(String... args) throws IOException {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.status(), r.err());
        return r.json();
    }

    private static long bound(JsonNode plan) {
        return plan.get("subgraphs").get(0).get("lower_bound_bytes").asLong();
    }

    @Test
    void planFollowsTheRuleAndSaysSo() throws IOException {
        JsonNode kept = json("plan", MODEL, "--json");
        JsonNode released = json("plan", MODEL, "--release-inputs", "--json");
        assertFalse(kept.get("release_inputs").asBoolean());
        assertTrue(released.get("release_inputs").asBoolean());
        assertTrue(bound(released) < bound(kept), bound(released) + " >= " + bound(kept));
        assertTrue(released.get("subgraphs").get(0).get("arena_bytes").asLong()
                < kept.get("subgraphs").get(0).get("arena_bytes").asLong());
        Cli.Result text = Cli.run("plan", MODEL, "--release-inputs");
        assertTrue(text.out().startsWith(PlanReport.RELEASE_INPUTS + "\n"), text.out());
    }

    @Test
    void aBufferSetHasNoInputsToRelease() throws IOException {
        Path csv = Files.writeString(temp.resolve("buffers.csv"), "id,lower,upper,size\n0,0,2,64\n");
        for (String command : new String[]{"plan", "compare-planners"}) {
            Cli.Result r = Cli.run(command, csv.toString(), "--release-inputs");
            assertEquals(Main.EXIT_ERROR, r.status(), command);
            assertTrue(r.err().contains("--release-inputs applies to a model or a graph JSON"), r.err());
        }
    }

    @Test
    void comparePlannersShowsTheBoundUnderTheRule() throws IOException {
        JsonNode kept = json("compare-planners", MODEL, "--time-limit", "1", "--json");
        JsonNode released = json("compare-planners", MODEL, "--time-limit", "1", "--release-inputs", "--json");
        assertFalse(kept.get("release_inputs").asBoolean());
        assertTrue(released.get("release_inputs").asBoolean());
        assertTrue(released.get("lower_bound_bytes").asLong() < kept.get("lower_bound_bytes").asLong());
        assertEquals(kept.get("native_arena_bytes").asLong(), released.get("native_arena_bytes").asLong(),
                "TFLite plans under its own rule");
    }

    @Test
    void reportNamesTheRule() throws IOException {
        Cli.Result r = Cli.run("report", MODEL, "--out", temp.toString(), "--time-limit", "1", "--release-inputs");
        assertEquals(0, r.status(), r.err());
        String html = Files.readString(temp.resolve("report.html"));
        assertTrue(html.contains("&#39;s rules, " + PlanReport.RELEASE_INPUTS + "; resolver"), html);
    }

    @Test
    void runGivesTheNativeOutputsPoisonedInASmallerArena() throws IOException {
        JsonNode kept = json("run", MODEL, "--poison", "--invokes", "2", "--json");
        JsonNode released = json("run", MODEL, "--poison", "--invokes", "2", "--release-inputs", "--json");
        assertTrue(released.get("outputs_identical").asBoolean());
        assertTrue(released.get("release_inputs").asBoolean());
        assertFalse(kept.get("release_inputs").asBoolean());
        assertTrue(released.get("java_arena_bytes").asLong() < kept.get("java_arena_bytes").asLong());
        Cli.Result text = Cli.run("run", MODEL, "--release-inputs");
        assertTrue(text.out().contains(", " + PlanReport.RELEASE_INPUTS + "\n"), text.out());
    }

    @Test
    void theNativePlannerCannotReleaseInputs() {
        Cli.Result r = Cli.run("run", MODEL, "--planner", "native", "--release-inputs");
        assertEquals(Main.EXIT_ERROR, r.status());
        assertTrue(r.err().contains("--release-inputs needs a Java planner (--planner tflite, "), r.err());
        Cli.Result memory = Cli.run("memory", MODEL, "--planner", "native", "--release-inputs");
        assertTrue(memory.status() != 0 && memory.err().contains("--release-inputs needs a Java planner"),
                memory.err());
    }

    @Test
    void memoryReleasesInputsOnTheJavaPlanOnly() throws IOException {
        Cli.Result r = Cli.run("memory", MODEL, "--release-inputs", "--json");
        assertEquals(0, r.status(), r.out() + "\n" + r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertTrue(root.get("release_inputs").asBoolean());
        assertFalse(root.get("runs").get(0).get("release_inputs").asBoolean(), "the native plan");
        assertTrue(root.get("runs").get(1).get("release_inputs").asBoolean(), "the tflite plan");
    }

    @Test
    void comparePlannersAndReportShowTheBoundUnderEachRule() throws IOException {
        // pose_landmark_lite: the one real model whose memory order lowers the bound.
        String pose = TestModels.named("pose_landmark_lite.tflite").toString();
        JsonNode bounds = json("compare-planners", pose, "--time-limit", "0.2", "--json").get("lower_bound_by_rule");
        long tflite = bounds.get("tflite_rules").asLong();
        assertEquals(json("plan", pose, "--json").get("subgraphs").get(0).get("lower_bound_bytes").asLong(), tflite);
        assertEquals(bound(json("plan", pose, "--release-inputs", "--json")), bounds.get("release_inputs").asLong());
        assertTrue(bounds.get("memory_order").asLong() < tflite, bounds.toString());
        assertTrue(bounds.get("release_inputs_and_memory_order").asLong() < bounds.get("release_inputs").asLong(),
                bounds.toString());
        Cli.Result text = Cli.run("compare-planners", pose, "--time-limit", "0.2");
        assertTrue(text.out().contains("lower bound by rule: TFLite's " + String.format("%,d", tflite)), text.out());
        assertEquals(0, Cli.run("report", pose, "--time-limit", "0.2", "--out", temp.toString()).status());
        String html = Files.readString(temp.resolve("report.html"));
        assertTrue(html.contains("<h2>Lower bound by rule</h2>"), html);
        assertTrue(html.contains(String.format("%,d", bounds.get("memory_order").asLong())), html);
    }
}
