package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fit (and plan) --capacity on a buffer set, --budget on a model, fuzz-solver. */
class FitCommandsTest {
    private static final String C = "tests/data/minimalloc/C.1048576.csv";
    private static final String MODEL = TestModels.named("face_detection_short_range.tflite").toString();

    @TempDir
    Path temp;

    @Test
    void capacityFitsOrSaysWhyNot() throws IOException {
        Cli.Result fits = Cli.run("plan", C, "--planner", "optimal", "--capacity", "1048576", "--json");
        assertEquals(0, fits.status(), fits.err());
        JsonNode json = fits.json();
        assertEquals("fits", json.get("verdict").asText());
        assertTrue(json.get("arena_bytes").asLong() <= 1_048_576);
        assertEquals(203, json.get("buffers").size());

        Cli.Result bound = Cli.run("plan", C, "--planner", "optimal", "--capacity", "1000000");
        assertEquals(1, bound.status(), bound.err());
        assertTrue(bound.out().startsWith(C + ": does not fit in 1000000 bytes: the lower bound is 1039360 bytes, "
                + "44 buffers live together at time "), bound.out());

        Path a = Path.of("tests/data/minimalloc/A.1048576.csv");
        Cli.Result late = Cli.run("plan", a.toString(), "--planner", "optimal", "--capacity", "1048576",
                "--time-limit", "0");
        assertEquals(1, late.status(), late.err());
        assertTrue(late.out().contains("no placement within 1048576 bytes found in"), late.out());
    }

    @Test
    void capacityAndBudgetAreRefusedWhereTheyDoNotApply() {
        Cli.Result planner = Cli.run("plan", C, "--capacity", "1048576");
        assertEquals(Main.EXIT_ERROR, planner.status());
        assertTrue(planner.err().contains("--capacity asks the exact search: give --planner optimal"), planner.err());
        Cli.Result budget = Cli.run("plan", C, "--budget", "1048576");
        assertEquals(Main.EXIT_ERROR, budget.status());
        assertTrue(budget.err().contains("--budget is for a model or graph"), budget.err());
        Cli.Result capacity = Cli.run("plan", MODEL, "--capacity", "1048576");
        assertEquals(Main.EXIT_ERROR, capacity.status());
        assertTrue(capacity.err().contains("--capacity is for a buffer set"), capacity.err());
        Cli.Result negative = Cli.run("plan", MODEL, "--budget", "-1");
        assertEquals(Main.EXIT_ERROR, negative.status());
    }

    @Test
    void budgetGivesAPlanWithinItOrTheTensorsAtThePeak() throws IOException {
        JsonNode tflite = Cli.run("plan", MODEL, "--json").json().get("subgraphs").get(0);
        long arena = tflite.get("arena_bytes").asLong();
        long bound = tflite.get("lower_bound_bytes").asLong();
        assertTrue(bound < arena, "the model has a gap for the search to close");

        Cli.Result roomy = Cli.run("plan", MODEL, "--budget", Long.toString(arena), "--json");
        assertEquals(0, roomy.status(), roomy.err());
        assertEquals("tflite", roomy.json().get("planner").asText());
        assertTrue(!roomy.json().get("budget").get(0).get("searched").asBoolean(), "tflite's plan is within");

        Cli.Result tight = Cli.run("plan", MODEL, "--budget", Long.toString(bound), "--time-limit", "20", "--json");
        assertEquals(0, tight.status(), tight.err());
        JsonNode subgraph = tight.json().get("subgraphs").get(0);
        assertEquals(bound, subgraph.get("arena_bytes").asLong());
        assertEquals("optimal", tight.json().get("planner").asText());
        assertTrue(tight.json().get("budget").get(0).get("searched").asBoolean());

        Cli.Result under = Cli.run("plan", MODEL, "--budget", Long.toString(bound - 1));
        assertEquals(1, under.status(), under.err());
        assertTrue(under.out().startsWith("subgraph 0: no plan within " + (bound - 1) + " bytes: the lower bound is "
                + bound + " bytes, live together at node "), under.out());
        assertTrue(under.out().contains(" input\n"), "the model's input is live at the peak: " + under.out());
        JsonNode peak = Cli.run("plan", MODEL, "--budget", Long.toString(bound - 1), "--json").json().get("budget").get(0);
        assertEquals("bound_over_budget", peak.get("verdict").asText());
        assertEquals(bound, peak.get("lower_bound_bytes").asLong());
        long live = 0;
        for (JsonNode t : peak.get("peak_tensors")) {
            live += t.get("bytes").asLong();
        }
        assertEquals(bound, live, "the tensors at the peak add up to the bound");
    }

    @Test
    void fitIsPlanWithABudgetOrCapacity() {
        assertEquals(Cli.run("plan", MODEL, "--budget", "2000000", "--json").out(),
                Cli.run("fit", MODEL, "--budget", "2000000", "--json").out());
        assertEquals(Cli.run("plan", C, "--planner", "optimal", "--capacity", "1000000", "--json").out()
                .replaceAll("\"millis\" : \\d+", ""), Cli.run("fit", C, "--planner", "optimal", "--capacity",
                "1000000", "--json").out().replaceAll("\"millis\" : \\d+", ""));
        Cli.Result neither = Cli.run("fit", MODEL);
        assertEquals(Main.EXIT_ERROR, neither.status());
        assertEquals("tflite-arena fit: fit needs --budget BYTES (a model or graph) or --capacity BYTES (a buffer "
                + "set)", neither.err().strip());
    }

    @Test
    void fuzzSolverRunsASeededSample() throws IOException {
        Cli.Result r = Cli.run("fuzz-solver", "--instances", "3", "--seed", "5", "--time-limit", "2", "--out",
                temp.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertEquals(3, json.get("instances").asInt());
        assertEquals(0, json.get("does_not_fit").asInt(), "each is built to fit");
        assertEquals(3, json.get("fits").asInt() + json.get("timed_out").asInt());
        assertTrue(json.get("worst_millis").asLong() < 4_000, json.toString());
        for (JsonNode o : json.get("outcomes")) {
            assertEquals(1_048_576, o.get("capacity").asLong());
            assertTrue(Files.exists(Path.of(o.get("file").asText())));
        }
        assertTrue(r.err().contains("fuzz-solver"), "progress on standard error: " + r.err());

        Cli.Result harder = Cli.run("fuzz-solver", "--instances", "2", "--seed", "5", "--time-limit", "1", "--harder");
        assertEquals(0, harder.status(), harder.err());
        assertTrue(harder.out().contains("2 instances (seed 5, harder), time limit 1.0 s: "), harder.out());
    }
}
