package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.presets.NativeRelease;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command's {@code --json} names a rw arena {@code arena}, a persistent arena {@code persistent}, and
 * rw and persistent together only as a {@code _total}: on one model with both arenas non-empty (a sum of the
 * two would show), each command's figures equal {@code compare}'s for the same plan.
 */
class ArenaFieldsTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    /** compare's figures, summed over subgraphs: the Java 'tflite' plan's and the native plan's. */
    private static long javaArena;
    private static long javaPersistent;
    private static long nativeArena;
    private static long nativePersistent;
    /** What the runtime adds to each arena's plan in the buffer it reports, summed over subgraphs. */
    private static long padding;
    private static int subgraphs;

    @TempDir
    Path temp;

    @BeforeAll
    static void compare() throws IOException {
        JsonNode json = json("compare", MODEL.toString(), "--json");
        assertTrue(json.get("identical").asBoolean());
        for (JsonNode s : json.get("subgraphs")) {
            javaArena += s.get("java_arena_bytes").asLong();
            javaPersistent += s.get("java_persistent_bytes").asLong();
            nativeArena += s.get("native_arena_bytes").asLong();
            nativePersistent += s.get("native_persistent_bytes").asLong();
        }
        subgraphs = json.get("subgraphs").size();
        padding = subgraphs * NativeRelease.loaded().arenaBufferPadding();
        assertEquals(nativeArena, javaArena, "identical plans, equal rw arenas");
        assertEquals(nativePersistent, javaPersistent, "identical plans, equal persistent arenas");
        assertTrue(javaArena > 0 && javaPersistent > 0, "both arenas hold something");
        ArenaFields.assertNamed(json, "java_arena_bytes", "native_arena_bytes", "java_persistent_bytes",
                "native_persistent_bytes");
    }

    private static JsonNode json(String... args) throws IOException {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.status(), r.err());
        return r.json();
    }

    @Test
    void runReportsTheJavaPlansArenasAsCompareDoesAndTheirBufferAsATotal() throws IOException {
        JsonNode run = json("run", MODEL.toString(), "--invokes", "1", "--json");
        assertEquals(javaArena, run.get("java_arena_bytes").asLong());
        assertEquals(javaPersistent, run.get("java_persistent_bytes").asLong());
        assertEquals(nativeArena + padding, run.get("reference_native_arena_bytes").asLong());
        assertEquals(nativePersistent + padding, run.get("reference_native_persistent_bytes").asLong());
        assertEquals(padding, run.get("native_arena_bytes_left").asLong());
        assertEquals(padding, run.get("native_persistent_bytes_left").asLong());
        long total = run.get("java_buffer_total_bytes").asLong();
        long regions = 2L * subgraphs;
        assertTrue(total >= javaArena + javaPersistent && total < javaArena + javaPersistent
                + regions * JavaArena.ALIGNMENT, "both arenas with at most one alignment's padding each: " + total);
        ArenaFields.assertNamed(run, "java_arena_bytes", "java_persistent_bytes", "java_buffer_total_bytes",
                "native_arena_bytes_left", "native_persistent_bytes_left", "reference_native_arena_bytes",
                "reference_native_persistent_bytes");
    }

    @Test
    void runWithTheNativePlannerHasNoJavaArena() throws IOException {
        JsonNode run = json("run", MODEL.toString(), "--planner", "native", "--invokes", "1", "--json");
        for (String field : new String[]{"java_arena_bytes", "java_persistent_bytes", "java_buffer_total_bytes"}) {
            assertEquals(0, run.get(field).asLong(), field);
        }
        assertEquals(run.get("reference_native_arena_bytes").asLong(), run.get("native_arena_bytes_left").asLong());
        assertEquals(run.get("reference_native_persistent_bytes").asLong(),
                run.get("native_persistent_bytes_left").asLong());
    }

    @Test
    void planAndComparePlannersReportOnePlansRwArenaAsArenaBytes() throws IOException {
        JsonNode plan = json("plan", MODEL.toString(), "--json");
        long arena = 0;
        long persistent = 0;
        for (JsonNode s : plan.get("subgraphs")) {
            arena += s.get("arena_bytes").asLong();
            persistent += s.get("persistent_bytes").asLong();
        }
        assertEquals(javaArena, arena);
        assertEquals(javaPersistent, persistent);
        ArenaFields.assertNamed(plan, "arena_bytes", "persistent_bytes");

        JsonNode planners = json("compare-planners", MODEL.toString(), "--time-limit", "1", "--json");
        JsonNode tflite = null;
        for (JsonNode p : planners.get("planners")) {
            if (p.get("name").asText().equals("tflite")) {
                tflite = p;
            }
        }
        assertEquals(javaArena, tflite.get("arena_bytes").asLong());
        assertEquals(nativeArena + padding, planners.get("native_arena_bytes").asLong());
        ArenaFields.assertNamed(planners, "native_arena_bytes", "arena_bytes");
    }

    @Test
    void memoryResizeCycleReportsEachSessionsRwArena() throws IOException {
        JsonNode memory = json("memory", MODEL.toString(), "--planner", "tflite", "--resize-cycle", "1", "--json");
        JsonNode runs = memory.get("runs");
        assertEquals("native", runs.get(0).get("planner").asText());
        assertEquals(nativeArena + padding, runs.get(0).get("fixed").get("steps").get(0).get("arena_bytes").asLong());
        assertEquals("tflite", runs.get(1).get("planner").asText());
        assertEquals(javaArena, runs.get(1).get("fixed").get("steps").get(0).get("arena_bytes").asLong());
        ArenaFields.assertNamed(memory, "arena_bytes");
    }

    @Test
    void releaseReportNamesTheNativePlansArenasAndTheirBuffers() throws IOException {
        Path models = Files.createDirectories(temp.resolve("models"));
        Files.createSymbolicLink(models.resolve(MODEL.getFileName()), MODEL.toAbsolutePath());
        JsonNode report = json("release-report", "--models-dir", models.toString());
        JsonNode model = report.get("models").get(0);
        assertEquals(nativeArena, model.get("arena_bytes").asLong());
        assertEquals(nativePersistent, model.get("persistent_bytes").asLong());
        assertEquals(nativeArena + padding, model.get("arena_buffer_bytes").asLong());
        assertEquals(nativePersistent + padding, model.get("persistent_buffer_bytes").asLong());
        ArenaFields.assertNamed(report, "arena_bytes", "persistent_bytes", "arena_buffer_bytes",
                "persistent_buffer_bytes");
    }
}
