package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupCommandsTest {
    private static final List<String> PIPELINE = Stream.of("face_detection_short_range.tflite",
            "hand_landmark_full.tflite", "pose_landmark_lite.tflite").map(n -> TestModels.named(n).toString()).toList();

    private static String[] command(String name, List<String> models, String... options) {
        return Stream.of(Stream.of(name), models.stream(), Stream.of(options)).flatMap(s -> s).toArray(String[]::new);
    }

    @Test
    void planGroupGivesOneArenaWithinFivePercentOfTheLargestAndEachModelAlone() throws IOException {
        Cli.Result r = Cli.run(command("plan-group", PIPELINE, "--json"));
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        JsonNode models = json.get("models");
        assertEquals(3, models.size());
        long largest = 0;
        long sum = 0;
        for (int m = 0; m < 3; m++) {
            assertEquals(PIPELINE.get(m), models.get(m).get("model").asText());
            JsonNode alone = Cli.run("plan", PIPELINE.get(m), "--json").json();
            long aloneBytes = alone.get("subgraphs").get(0).get("arena_bytes").asLong();
            assertEquals(aloneBytes, models.get(m).get("arena_bytes").asLong());
            largest = Math.max(largest, aloneBytes);
            sum += aloneBytes;
        }
        long arena = json.get("arena_bytes").asLong();
        assertTrue(arena <= 1.05 * largest, arena + " against the largest alone " + largest);
        assertEquals(largest, json.get("largest_alone_arena_bytes").asLong());
        assertEquals(sum, json.get("sum_alone_arena_bytes").asLong());
        assertEquals("tflite", json.get("planner").asText());
        ArenaFields.assertNamed(json, "arena_bytes", "shared_arena_bytes", "largest_alone_arena_bytes",
                "sum_alone_arena_bytes", "persistent_bytes");
    }

    @Test
    void runGroupRunsTheModelsOnOneArenaWithOutputsIdenticalToEachAlone() throws IOException {
        Cli.Result r = Cli.run(command("run-group", PIPELINE, "--invokes", "2"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("3 models, planner tflite: one rw arena of "), r.out());
        assertTrue(r.out().contains("2 rounds of every model, seed 1: outputs identical to each model run alone "
                + "(native-planned)"), r.out());
    }

    @Test
    void runGroupWithXnnpackGivesTheOutputsOfEachModelAloneWithXnnpack() throws IOException {
        Cli.Result r = Cli.run(command("run-group", PIPELINE.subList(0, 2), "--xnnpack", "--invokes", "1", "--json"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.json().get("outputs_identical").asBoolean());
    }

    @Test
    void aModelGivenTwiceRunsTwice() throws IOException {
        Cli.Result r = Cli.run(command("run-group", List.of(PIPELINE.get(0), PIPELINE.get(0)), "--json",
                "--planner", "greedy-by-size", "--invokes", "1"));
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertTrue(json.get("outputs_identical").asBoolean());
        ArenaFields.assertNamed(json, "arena_bytes", "shared_arena_bytes", "largest_alone_arena_bytes",
                "sum_alone_arena_bytes", "persistent_bytes");
        assertEquals(2, json.get("models").size());
        assertEquals(json.get("models").get(0).get("arena_bytes").asLong(), json.get("arena_bytes").asLong());
    }

    @Test
    void aModelThatFailsToLoadIsNamed() {
        Cli.Result r = Cli.run(command("run-group", List.of(PIPELINE.get(0), "missing.tflite")));
        assertEquals(Main.EXIT_ERROR, r.status());
        assertEquals("tflite-arena run-group: missing.tflite: no such readable file", r.err().strip());
        Cli.Result plan = Cli.run(command("plan-group", List.of(PIPELINE.get(0), "missing.tflite")));
        assertEquals(Main.EXIT_ERROR, plan.status());
        assertEquals("tflite-arena plan-group: missing.tflite: no such readable file", plan.err().strip());
    }

    @Test
    void theNativePlannerAndAnUnknownOneAreRefused() {
        Cli.Result nativePlanner = Cli.run(command("run-group", PIPELINE.subList(0, 1), "--planner", "native"));
        assertEquals(Main.EXIT_ERROR, nativePlanner.status());
        assertTrue(nativePlanner.err().contains("an arena group is placed by a Java planner"), nativePlanner.err());
        Cli.Result unknown = Cli.run(command("plan-group", PIPELINE.subList(0, 1), "--planner", "nope"));
        assertEquals(Main.EXIT_ERROR, unknown.status());
        assertTrue(unknown.err().contains("unknown planner 'nope'"), unknown.err());
    }
}
