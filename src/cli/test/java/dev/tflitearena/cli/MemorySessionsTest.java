package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code memory --sessions}: what each extra session costs, with and without sharing. */
class MemorySessionsTest {
    private static final String MODEL = TestModels.named("face_detection_short_range.tflite").toString();

    private static JsonNode run(String... args) throws Exception {
        StringWriter out = new StringWriter();
        int status = new CommandLine(new MemoryCommand()).setOut(new PrintWriter(out)).execute(args);
        assertEquals(0, status, out.toString());
        return new ObjectMapper().readTree(out.toString()).get("runs").get(0);
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
        // README's figures): in this JVM the JVM's own mallocs move them by megabytes either way.
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
        assertTrue(shared.get("within_goal").isBoolean(), shared.toString());
        assertTrue(unshared.get("within_goal").isNull(), unshared.toString());
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
