package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bake --for tflite, and the baked model as plan, run and compare take it. */
class BakeForTfliteCommandTest {
    private static final Path MODEL = TestModels.named("hand_landmark_full.tflite");

    @TempDir
    Path temp;

    @Test
    void theBakedPlanIsWhatPlanAndRunUseWhenTheOptionsMatch() throws Exception {
        Path out = temp.resolve("baked.tflite");
        Cli.Result baked = run("bake", MODEL.toString(), "--for", "tflite", "--planner", "best-of", "--release-inputs",
                "-o", out.toString(), "--json");
        assertEquals(0, baked.status(), baked.err());
        JsonNode j = baked.json();
        assertEquals("tflite", j.get("for").asText());
        assertEquals("best-of", j.get("planner").asText());
        assertTrue(j.get("release_inputs").asBoolean());
        assertEquals("model", j.get("order").asText());
        assertFalse(j.get("xnnpack").asBoolean());
        long arena = j.get("arena_bytes").asLong();
        assertTrue(arena < j.get("native_arena_bytes").asLong(), j.toString());
        assertTrue(arena >= j.get("lower_bound_bytes").asLong(), j.toString());
        assertEquals(1, j.get("subgraphs_planned").asInt());
        ArenaFields.assertNamed(j, "arena_bytes", "persistent_bytes", "native_arena_bytes");
        assertTrue(j.get("tensors_baked").asInt() > 0);

        Cli.Result plan = run("plan", out.toString(), "--release-inputs", "--json");
        assertEquals(0, plan.status(), plan.err());
        assertEquals("baked", plan.json().get("planner").asText());
        assertEquals(arena, plan.json().get("subgraphs").get(0).get("arena_bytes").asLong());
        Cli.Result other = run("plan", out.toString(), "--json");
        assertEquals(0, other.status(), other.err());
        assertEquals("tflite", other.json().get("planner").asText());
        assertTrue(other.err().contains("its baked plan is not used, planning with tflite: the plan releases graph "
                + "inputs after their last consumer, the session keeps them to the end"), other.err());

        Cli.Result ran = run("run", out.toString(), "--plan", out.toString(), "--release-inputs", "--poison");
        assertEquals(0, ran.status(), ran.err());
        assertTrue(ran.out().contains("outputs identical"), ran.out());
        Cli.Result compared = run("compare", out.toString());
        assertEquals(0, compared.status(), compared.err());
    }

    @Test
    void aBakedModelIsBakedAgainOnlyWithReplaceAndBadOptionsAreNamed() throws Exception {
        Path out = temp.resolve("baked.tflite");
        assertEquals(0, run("bake", MODEL.toString(), "--for", "tflite", "-o", out.toString(), "--quiet").status());
        Path again = temp.resolve("again.tflite");
        Cli.Result refused = run("bake", out.toString(), "--for", "tflite", "-o", again.toString());
        assertEquals(Main.EXIT_ERROR, refused.status());
        assertTrue(refused.err().contains("holds a baked plan already (metadata 'tflite_arena.plan'); --replace writes a new one over it"), refused.err());
        assertFalse(Files.exists(again));
        Cli.Result replaced = run("bake", out.toString(), "--for", "tflite", "-o", again.toString(), "--replace",
                "--xnnpack", "--json");
        assertEquals(0, replaced.status(), replaced.err());
        assertTrue(replaced.json().get("xnnpack").asBoolean());

        Cli.Result alignment = run("bake", MODEL.toString(), "--for", "tflite", "-o", again.toString(),
                "--alignment", "32");
        assertEquals(Main.EXIT_ERROR, alignment.status());
        assertTrue(alignment.err().contains("--alignment is TFLM's"), alignment.err());
        Cli.Result order = run("bake", MODEL.toString(), "--for", "tflite", "-o", again.toString(), "--order",
                "memory", "--xnnpack");
        assertEquals(Main.EXIT_ERROR, order.status());
        assertTrue(order.err().contains("XNNPACK"), order.err());
        Cli.Result noPlan = run("plan", MODEL.toString(), "--plan", MODEL.toString());
        assertEquals(Main.EXIT_ERROR, noPlan.status());
        assertTrue(noPlan.err().contains("no baked plan (metadata 'tflite_arena.plan'); 'bake --for tflite' writes one"),
                noPlan.err());
    }

    @Test
    void runUsesTheBakedPlanAsASessionDoesAndAPlanFileMustBeForTheModelRun() throws Exception {
        Path out = temp.resolve("baked.tflite");
        assertEquals(0, run("bake", MODEL.toString(), "--for", "tflite", "--planner", "tflite", "-o", out.toString(),
                "--quiet").status());
        Cli.Result baked = run("run", out.toString(), "--json", "--quiet");
        assertEquals(0, baked.status(), baked.err());
        assertEquals("baked", baked.json().get("planner").asText());
        assertEquals("used", baked.json().get("baked_plan").asText());
        Cli.Result named = run("run", out.toString(), "--planner", "greedy-by-size", "--json", "--quiet");
        assertEquals("not_used", named.json().get("baked_plan").asText());
        assertEquals("--planner names greedy-by-size", named.json().get("baked_plan_why").asText());
        Cli.Result released = run("run", out.toString(), "--release-inputs", "--json", "--quiet");
        assertEquals("tflite", released.json().get("planner").asText());
        assertTrue(released.json().get("baked_plan_why").asText().startsWith("the plan keeps graph inputs to the end"),
                released.out());
        assertEquals("none", run("run", MODEL.toString(), "--json", "--quiet").json().get("baked_plan").asText());

        Path other = TestModels.named("hand_landmark_lite.tflite");
        Cli.Result foreign = run("run", other.toString(), "--plan", out.toString(), "--quiet");
        assertEquals(Main.EXIT_ERROR, foreign.status());
        assertTrue(foreign.err().contains("its baked plan is not for " + other + " as run here: " + other
                + " is not the one the plan was made from"), foreign.err());
        assertTrue(foreign.err().contains("(--ignore-fingerprint uses it all the same)"), foreign.err());
        Cli.Result ignored = run("run", other.toString(), "--plan", out.toString(), "--ignore-fingerprint", "--quiet");
        assertEquals(Main.EXIT_ERROR, ignored.status());
        assertTrue(ignored.err().contains("the plan gives it"), "the validator has the last word: " + ignored.err());
        Cli.Result options = run("run", MODEL.toString(), "--plan", out.toString(), "--release-inputs", "--quiet");
        assertEquals(Main.EXIT_ERROR, options.status());
        assertTrue(options.err().contains("the plan keeps graph inputs to the end"), options.err());
        Cli.Result misplaced = run("run", MODEL.toString(), "--ignore-fingerprint", "--quiet");
        assertEquals(Main.EXIT_ERROR, misplaced.status());
        assertTrue(misplaced.err().contains("--ignore-fingerprint is for a baked --plan"), misplaced.err());
    }
}
