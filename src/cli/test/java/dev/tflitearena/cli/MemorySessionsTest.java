package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code memory --sessions}: what each extra session costs, with and without sharing. */
class MemorySessionsTest {
    private static final String MODEL = TestModels.named("face_detection_short_range.tflite").toString();

    private static JsonNode run(String... args) throws Exception {
        Cli.Result r = Cli.run(MemoryCommandTest.memory(args));
        assertEquals(0, r.status(), r.out() + "\n" + r.err());
        return new ObjectMapper().readTree(r.out()).get("runs").get(0);
    }

    @Test
    void sharingSessionsOwnNoPersistentArenaOfThisModelAndCostLessThanUnsharedOnes() throws Exception {
        JsonNode shared = run(MODEL, "--sessions", "1,3", "--planner", "native", "--json", "--quiet");
        JsonNode unshared = run(MODEL, "--sessions", "1,3", "--planner", "native", "--no-share", "--json", "--quiet");
        assertTrue(shared.get("share").asBoolean());
        assertTrue(shared.get("shared_bytes").asLong() > 0);
        assertEquals(0, shared.get("persistent_arena_bytes").asLong());
        assertEquals(0, unshared.get("shared_bytes").asLong());
        assertTrue(unshared.get("persistent_arena_bytes").asLong() > 700_000, unshared.toString());
        for (JsonNode r : new JsonNode[]{shared, unshared}) {
            assertEquals(2, r.get("sessions").size());
            assertEquals(3, r.get("sessions").get(1).get("count").asInt());
            assertEquals(r.get("rw_arena_bytes").asLong(), r.get("working_bytes").asLong(), "no XNNPACK");
            JsonNode split = r.get("per_extra_session_split");
            assertEquals(r.get("per_extra_session_bytes").asLong(), split.get("rw_arena_bytes").asLong()
                    + split.get("persistent_arena_bytes").asLong() + split.get("xnnpack_bytes").asLong()
                    + split.get("rest_bytes").asLong());
        }
        // The heap figures themselves are left to the command's own child JVM, with Native Memory Tracking (the
        // figures of docs/server-teams.md): in this JVM the JVM's own mallocs move them by megabytes either way.
    }

    @Test
    void theRestIsSplitByStepAndTheSparseIndicesAreSharedToo() throws Exception {
        String sparse = TestModels.named("face_detection_full_range_sparse.tflite").toString();
        JsonNode shared = run(sparse, "--sessions", "1,2", "--planner", "native", "--json", "--quiet");
        JsonNode unshared = run(sparse, "--sessions", "1,2", "--planner", "native", "--no-share", "--json", "--quiet");
        assertEquals(0, shared.get("persistent_tensors").size(), shared.get("persistent_tensors").toString());
        assertTrue(unshared.get("persistent_tensors").size() > 0);
        for (JsonNode t : unshared.get("persistent_tensors")) {
            assertEquals("shareable", t.get("kind").asText(), t.toString());
        }
        assertEquals(unshared.get("persistent_bytes_by_kind").get("shareable").asLong(),
                sum(unshared.get("persistent_tensors")));
        JsonNode sharedSplit = shared.get("rest_split");
        JsonNode unsharedSplit = unshared.get("rest_split");
        for (JsonNode split : new JsonNode[]{sharedSplit, unsharedSplit}) {
            assertEquals(split.get("rest_bytes").asLong(), split.get("build_bytes").asLong()
                    + split.get("allocate_bytes").asLong() + split.get("first_invoke_bytes").asLong()
                    + split.get("sharing_bytes").asLong() + split.get("later_invoke_bytes").asLong());
            assertTrue(split.get("census").get("tensor_array").asLong() > 0, split.toString());
        }
        // TFLite copies a sparse tensor's indices into every interpreter; sharing sessions point at one copy.
        assertTrue(unsharedSplit.get("census").get("sparsity").asLong() > 500_000, unsharedSplit.toString());
        assertEquals(0, sharedSplit.get("census").get("sparsity").asLong(), sharedSplit.toString());
        // Freed at sharing; on a loaded machine part of the free shows only in the next step's measure.
        assertTrue(sharedSplit.get("sharing_bytes").asLong() + sharedSplit.get("later_invoke_bytes").asLong()
                < -500_000, sharedSplit.toString());
    }

    private static long sum(JsonNode tensors) {
        long bytes = 0;
        for (JsonNode t : tensors) {
            bytes += t.get("bytes").asLong();
        }
        return bytes;
    }

    @Test
    void withOneThreadConv2dKeepsNoTransposedFilterAndLessIsShared() throws Exception {
        JsonNode defaults = run(MODEL, "--sessions", "1,2", "--planner", "native", "--json", "--quiet");
        JsonNode oneThread = run(MODEL, "--sessions", "1,2", "--planner", "native", "--threads", "1", "--json", "--quiet");
        assertEquals(1, oneThread.get("threads").asInt());
        assertTrue(oneThread.get("shared_bytes").asLong() < defaults.get("shared_bytes").asLong());
    }

    @Test
    void withXnnpackTheGoalIsJudgedOnlyWhenTheSessionsShareTheirWeightsCache() throws Exception {
        JsonNode shared = run(MODEL, "--sessions", "1,2", "--planner", "native", "--xnnpack", "--json", "--quiet");
        JsonNode unshared = run(MODEL, "--sessions", "1,2", "--planner", "native", "--xnnpack", "--no-share",
                "--json", "--quiet");
        boolean large = shared.get("working_bytes").asLong() >= 4L << 20;
        assertEquals(large, shared.get("within_goal").isBoolean(), shared.toString());
        if (!large) {
            assertTrue(shared.get("goal_not_judged_because").asText().contains("a working set under 4 MB"));
        }
        assertTrue(unshared.get("within_goal").isNull(), unshared.toString());
        assertTrue(unshared.get("goal_not_judged_because").asText().contains("XNNPACK"), unshared.toString());
    }

    @Test
    void badSessionCountsAndMisplacedOptionsAreRefused() {
        Cli.Result one = Cli.run("memory", MODEL, "--sessions", "2");
        assertEquals(Main.EXIT_ERROR, one.status(), one.err());
        assertTrue(one.err().contains("--sessions needs at least two different counts"), one.err());
        Cli.Result noShare = Cli.run("memory", MODEL, "--no-share");
        assertEquals(Main.EXIT_ERROR, noShare.status(), noShare.err());
        assertTrue(noShare.err().contains("--no-share is for --sessions"), noShare.err());
    }
}
