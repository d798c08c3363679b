package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderOptionTest {
    @TempDir
    Path temp;

    /** x feeds two branches, each a big tensor then a small one: one branch after the other needs less. */
    private Path twoBranches() throws IOException {
        return Files.writeString(temp.resolve("branches.json"), """
                {"format": "tflite-arena-graph", "version": 1,
                 "options": {"tensor_alignment": 1, "preserve_all_tensors": false},
                 "subgraphs": [{"index": 0, "inputs": [0], "outputs": [5], "variables": [],
                   "tensors": [{"index": 0, "name": "x", "bytes": 10, "allocation": "arena_rw"},
                               {"index": 1, "name": "a1", "bytes": 100, "allocation": "arena_rw"},
                               {"index": 2, "name": "b1", "bytes": 100, "allocation": "arena_rw"},
                               {"index": 3, "name": "a2", "bytes": 10, "allocation": "arena_rw"},
                               {"index": 4, "name": "b2", "bytes": 10, "allocation": "arena_rw"},
                               {"index": 5, "name": "y", "bytes": 10, "allocation": "arena_rw"}],
                   "nodes": [{"op": "ADD", "inputs": [0], "outputs": [1], "inplace": 0},
                             {"op": "ADD", "inputs": [0], "outputs": [2], "inplace": 0},
                             {"op": "ADD", "inputs": [1], "outputs": [3], "inplace": 0},
                             {"op": "ADD", "inputs": [2], "outputs": [4], "inplace": 0},
                             {"op": "ADD", "inputs": [3, 4], "outputs": [5], "inplace": 0}]}]}""");
    }

    @Test
    void planInTheMemoryOrderRunsOneBranchAfterTheOther() throws IOException {
        Path graph = twoBranches();
        Cli.Result model = run("plan", graph.toString(), "--json");
        assertEquals(220, model.json().get("subgraphs").get(0).get("lower_bound_bytes").asLong());
        Cli.Result r = run("plan", graph.toString(), "--order", "memory", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode order = r.json().get("order");
        assertEquals("exact", order.get("search").asText());
        assertEquals(4, order.get("ops_with_choice").asInt());
        assertEquals(220, order.get("lower_bound_before_bytes").asLong());
        assertEquals(130, order.get("lower_bound_after_bytes").asLong());
        assertEquals(130, r.json().get("subgraphs").get(0).get("lower_bound_bytes").asLong());
        assertEquals(130, r.json().get("subgraphs").get(0).get("arena_bytes").asLong());
        Cli.Result text = run("plan", graph.toString(), "--order", "memory");
        assertTrue(text.out().startsWith("order memory (exact, "), text.out());
        assertTrue(text.out().contains("4 of 5 ops had a choice (2 that free nothing run just before their first "
                + "consumer), lower bound 220 -> 130 bytes (-40.9%)"), text.out());
    }

    @Test
    void runInTheMemoryOrderGivesIdenticalOutputs() throws IOException {
        Path model = TestModels.named("pose_landmark_lite.tflite");
        Cli.Result r = run("run", model.toString(), "--order", "memory", "--poison", "--invokes", "1", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        assertTrue(json.get("outputs_identical").asBoolean());
        assertTrue(json.get("order").get("reordered").asBoolean());
        assertTrue(json.get("java_arena_bytes").asLong() < json.get("reference_native_arena_bytes").asLong(),
                json.toString());
    }

    @Test
    void anUnknownOrderOrOneForABufferSetIsRefused() throws IOException {
        Cli.Result unknown = run("plan", twoBranches().toString(), "--order", "fastest");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("unknown order 'fastest': model or memory"), unknown.err());
        Path csv = Files.writeString(temp.resolve("b.csv"), "id,lower,upper,size\n0,0,1,8\n");
        Cli.Result buffers = run("plan", csv.toString(), "--order", "memory");
        assertEquals(2, buffers.status());
        assertTrue(buffers.err().contains("--order applies to a graph's ops; a buffer set has none"), buffers.err());
    }
}
