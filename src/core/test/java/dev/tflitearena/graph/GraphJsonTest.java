package dev.tflitearena.graph;

import org.junit.jupiter.api.Test;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GraphJsonTest {

    private static Graph sample() {
        GraphBuilder g = new GraphBuilder().options(16, true);
        int in = g.tensor(40), state = g.tensor(8, Allocation.ARENA_RW_PERSISTENT), weights = g.tensor(12, Allocation.MMAP_RO);
        int temp = g.tensor(0), out = g.tensor(40);
        g.node(ids(in, weights, -1, state), ids(out), ids(temp), Inplace.INPUT0_SHARED | Inplace.DATA_UNMODIFIED)
                .inputs(in).outputs(out).variables(state);
        return g.build();
    }

    @Test
    void roundTripKeepsEveryField() {
        String json = GraphJson.toJson(sample());
        Graph read = GraphJson.parse(json);
        assertEquals(json, GraphJson.toJson(read));
        assertEquals(16, read.options().tensorAlignment());
        assertTrue(read.options().preserveAllTensors());
        Subgraph s = read.subgraphs().get(0);
        assertEquals(Allocation.ARENA_RW_PERSISTENT, s.tensor(1).allocation());
        assertEquals(-1, s.nodes().get(0).inputs()[2]);
        assertEquals(Inplace.INPUT0_SHARED | Inplace.DATA_UNMODIFIED, s.nodes().get(0).inplace());
        assertTrue(json.contains("\"format\" : \"tflite-arena-graph\""));
        assertTrue(json.contains("\"version\" : 1"));
    }

    @Test
    void defaultsApplyWhenOptionalFieldsAreAbsent() {
        Graph g = GraphJson.parse("""
                {"subgraphs": [{"tensors": [{"bytes": 4, "allocation": "arena_rw"}], "nodes": [],
                  "inputs": [0], "outputs": [0]}]}""");
        assertEquals(64, g.options().tensorAlignment());
        assertEquals(0, g.subgraphs().get(0).tensor(0).index());
        assertEquals(0, g.subgraphs().get(0).variables().length);
    }

    private static String error(String json) {
        return assertThrows(InvalidGraphException.class, () -> GraphJson.parse(json)).getMessage();
    }

    private static String withNode(String node) {
        return """
                {"subgraphs": [{"index": 0, "inputs": [0], "outputs": [1], "variables": [],
                  "tensors": [{"index": 0, "name": "in", "bytes": 4, "allocation": "arena_rw"},
                              {"index": 1, "name": "out", "bytes": 4, "allocation": "arena_rw"}],
                  "nodes": [%s]}]}""".formatted(node);
    }

    @Test
    void aReferenceToAMissingTensorNamesSubgraphNodeAndTensor() {
        String message = error(withNode("{\"op\": \"ADD\", \"inputs\": [0, 7], \"outputs\": [1]}"));
        assertEquals("subgraph 0, node 0 (ADD): inputs[1] is 7, which refers to no tensor (the subgraph has 2)",
                message);
    }

    @Test
    void anAbsentTemporaryIsRefused() {
        assertTrue(error(withNode("{\"inputs\": [0], \"outputs\": [1], \"temporaries\": [-1]}"))
                .startsWith("subgraph 0, node 0: temporaries[0] is -1"));
    }

    @Test
    void negativeSizeDuplicateIndexAndUnknownAllocationAreRefused() {
        assertEquals("subgraph 0, tensor 0: 'bytes' must be a non-negative integer", error("""
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": -4, "allocation": "arena_rw"}], "nodes": []}]}"""));
        assertEquals("subgraph 0, tensor 0: duplicate tensor index", error("""
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 4, "allocation": "arena_rw"},
                                            {"index": 0, "bytes": 4, "allocation": "arena_rw"}], "nodes": []}]}"""));
        assertTrue(error("""
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 4, "allocation": "heap"}], "nodes": []}]}""")
                .startsWith("subgraph 0, tensor 0: unknown allocation 'heap'; valid: none, mmap_ro, arena_rw"));
        assertEquals("subgraph 1: duplicate subgraph index", error("""
                {"subgraphs": [{"index": 1, "tensors": [], "nodes": []}, {"index": 1, "tensors": [], "nodes": []}]}"""));
    }

    @Test
    void bytesThatContradictTheShapeAreRefused() {
        assertEquals("subgraph 0, tensor 0: 'bytes' is 8 but a FLOAT32 tensor of shape [1, 3] needs 12", error("""
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 8, "allocation": "arena_rw",
                                             "type": "FLOAT32", "shape": [1, 3]}], "nodes": []}]}"""));
    }

    @Test
    void formatVersionAlignmentAndSyntaxAreChecked() {
        assertTrue(error("{\"format\": \"onnx\", \"subgraphs\": []}").startsWith("format is 'onnx'"));
        assertTrue(error("{\"version\": 2, \"subgraphs\": []}").startsWith("version 2 is not supported"));
        assertTrue(error("{\"options\": {\"tensor_alignment\": 128}, \"subgraphs\": [{\"tensors\": [], \"nodes\": []}]}")
                .startsWith("options: tensor_alignment must be from 1 to 64"));
        assertTrue(error("{\"subgraphs\": [").startsWith("not valid JSON"));
        assertEquals("'subgraphs' must be a non-empty array", error("{}"));
    }
}
