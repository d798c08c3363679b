package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.graph.GraphBuilder;
import dev.tflitearena.graph.GraphJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FuzzPlannerCommandTest {

    private static Cli.Result run(String... args) {
        String[] full = new String[args.length + 1];
        full[0] = "fuzz-planner";
        System.arraycopy(args, 0, full, 1, args.length);
        return Cli.run(full);
    }

    @Test
    void aShortRunPrintsItsCountsAndExitsZero(@TempDir Path out) throws Exception {
        Cli.Result r = run("--graphs", "20", "--seed", "3", "--out", out.toString(), "--json");
        assertEquals(0, r.status(), r.out());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(20, json.path("graphs").asInt());
        assertEquals(0, json.path("mismatches").asInt());
        assertTrue(json.path("tensors_compared").asLong() > 0);
    }

    @Test
    void replaysAGraphJson(@TempDir Path dir) throws Exception {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(100), mid = g.tensor(200), out = g.tensor(100);
        g.node(ids(in), ids(mid)).node(ids(mid), ids(out)).inputs(in).outputs(out);
        Path file = dir.resolve("graph.json");
        GraphJson.write(g.build(), file);
        Cli.Result r = run("--replay", file.toString());
        assertEquals(0, r.status(), r.out());
        assertTrue(r.out().contains("3 tensors compared"), r.out());
        assertTrue(r.out().contains("no failures"), r.out());
    }
}
