package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.TestModels;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.GreedyBySizePlacer;
import dev.tflitearena.plan.place.MinimallocCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 18: a subgraph's buffers out to an outside planner, its offsets back in, checked, and run. */
class PlanImportTest {
    private static final Path MODEL = TestModels.named("hand_landmark_lite.tflite");

    @TempDir
    Path dir;

    @Test
    void exportSolveImportRunGivesIdenticalOutputsOnEveryRealModel() throws IOException {
        for (Path model : TestModels.runnable()) {
            Path problem = dir.resolve(model.getFileName() + ".csv");
            Cli.Result export = Cli.run("plan", model.toString(), "--export-buffers", problem.toString());
            assertEquals(0, export.status(), export.err());
            Path solution = solve(problem, dir.resolve(model.getFileName() + ".solved.csv"));
            Cli.Result run = Cli.run("run", model.toString(), "--plan", solution.toString(), "--invokes", "1",
                    "--json");
            assertEquals(0, run.status(), model + ": " + run.err());
            JsonNode json = run.json();
            assertTrue(json.get("outputs_identical").asBoolean(), model.toString());
            assertEquals(solution.getFileName().toString(), json.get("planner").asText());
            assertEquals(arena(solution), json.get("java_arena_bytes").asLong(), model.toString());
            assertTrue(json.get("lower_bound_bytes").asLong() <= json.get("java_arena_bytes").asLong());
        }
    }

    @Test
    void theRoundTripFollowsTheMemoryOrder() throws IOException {
        // The one real model whose memory order differs from its own (see docs/planner-engineers.md,
        // memory-aware order).
        Path model = TestModels.named("pose_landmark_lite.tflite");
        Path problem = dir.resolve("ordered.csv");
        Cli.Result export = Cli.run("plan", model.toString(), "--order", "memory", "--export-buffers",
                problem.toString(), "--json");
        assertEquals(0, export.status(), export.err());
        Path inModelOrder = dir.resolve("model-order.csv");
        assertEquals(0, Cli.run("plan", model.toString(), "--export-buffers", inModelOrder.toString()).status());
        assertTrue(export.json().get("lower_bound_bytes").asLong()
                < Cli.run("plan", model.toString(), "--export-buffers", inModelOrder.toString(), "--json").json()
                .get("lower_bound_bytes").asLong(), "the memory order lowers this model's bound");
        Path solution = solve(problem, dir.resolve("ordered.solved.csv"));
        Cli.Result run = Cli.run("run", model.toString(), "--order", "memory", "--plan", solution.toString(),
                "--invokes", "1", "--poison", "--json");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.json().get("outputs_identical").asBoolean());
        Cli.Result mismatched = Cli.run("run", model.toString(), "--plan", solution.toString(), "--invokes", "1");
        assertEquals(2, mismatched.status(), "a plan for the memory order does not fit the model's order");
    }

    @Test
    void exportBuffersWritesWhatPlanExportBuffersWrites() throws IOException {
        Path byPlan = dir.resolve("by-plan.csv");
        Path byCommand = dir.resolve("by-command.csv");
        assertEquals(0, Cli.run("plan", MODEL.toString(), "--export-buffers", byPlan.toString()).status());
        Cli.Result r = Cli.run("export-buffers", MODEL.toString(), byCommand.toString(), "--subgraph", "0");
        assertEquals(0, r.status(), r.err());
        assertEquals(Files.readString(byPlan), Files.readString(byCommand));
    }

    @Test
    void theCsvHoldsTheRwRootsAlignedAndTheJsonNamesThem() throws IOException {
        Path csv = dir.resolve("problem.csv");
        Path json = dir.resolve("problem.json");
        assertEquals(0, Cli.run("plan", MODEL.toString(), "--export-buffers", csv.toString()).status());
        assertEquals(0, Cli.run("plan", MODEL.toString(), "--export-buffers", json.toString()).status());
        List<String> lines = Files.readAllLines(csv);
        assertEquals("id,lower,upper,size", lines.get(0));
        JsonNode problem = new ObjectMapper().readTree(json.toFile());
        int alignment = problem.get("alignment").asInt();
        assertEquals(64, alignment);
        JsonNode plan = Cli.run("plan", MODEL.toString(), "--json").json().get("subgraphs").get(0);
        assertEquals(plan.get("lower_bound_bytes").asLong(), problem.get("lower_bound_bytes").asLong());
        Map<Integer, JsonNode> tensors = new HashMap<>();
        plan.get("tensors").forEach(t -> tensors.put(t.get("index").asInt(), t));
        JsonNode buffers = problem.get("buffers");
        assertEquals(lines.size() - 1, buffers.size());
        for (int i = 0; i < buffers.size(); i++) {
            JsonNode b = buffers.get(i);
            JsonNode tensor = tensors.get(b.get("id").asInt());
            assertEquals(b.get("id") + "," + b.get("lower") + "," + b.get("upper") + "," + b.get("size"), lines.get(i + 1));
            assertEquals("rw", tensor.get("arena").asText());
            assertTrue(tensor.get("alias_of") == null, "aliases ride on their root");
            assertEquals(tensor.get("name").asText(), b.get("name").asText());
            assertEquals(tensor.get("first").asInt(), b.get("lower").asInt());
            assertEquals(tensor.get("last").asInt() + 1, b.get("upper").asInt());
            assertEquals(tensor.get("bytes").asLong(), b.get("bytes").asLong());
            assertEquals(0, b.get("size").asLong() % alignment);
            assertTrue(b.get("size").asLong() - b.get("bytes").asLong() < alignment);
        }
    }

    @Test
    void brokenPlansOfEachKindAreRefusedNamingTheTensors() throws IOException {
        Path problem = dir.resolve("problem.csv");
        assertEquals(0, Cli.run("plan", MODEL.toString(), "--export-buffers", problem.toString()).status());
        Path good = solve(problem, dir.resolve("good.csv"));
        List<String> rows = Files.readAllLines(good);
        String[] second = rows.get(2).split(",");
        String tensor = "tensor " + second[0] + " '";
        refused(rows, r -> without(r, 2), "good.csv, subgraph 0: id " + second[0] + " is missing: " + tensor,
                "live over [" + second[1] + ", " + second[2] + ")");
        refused(rows, r -> with(r, "9999,0,1,64,0"), "line " + (rows.size() + 1) + ": id 9999 is not a buffer of "
                + "the rw arena: the subgraph has tensors 0..");
        refused(rows, r -> with(r, "1,0,3,64,0"), "id 1 is not a buffer of the rw arena: tensor 1 '",
                "mmap_ro", "gets no memory of its own");
        refused(rows, r -> edited(r, 2, 2, Long.parseLong(second[2]) + 1), "line 3: " + tensor,
                "has the interval [" + second[1] + ", " + (Long.parseLong(second[2]) + 1)
                        + ") but the model has it live over [" + second[1] + ", " + second[2] + ")");
        refused(rows, r -> edited(r, 2, 3, Long.parseLong(second[3]) + 64), "line 3: " + tensor,
                "has size " + (Long.parseLong(second[3]) + 64) + " but the model's is " + second[3]);
        refused(rows, r -> edited(r, 2, 4, Long.parseLong(second[4]) + 1), "line 3: " + tensor,
                "at offset " + (Long.parseLong(second[4]) + 1) + ", which is not a multiple of the tensor alignment 64");
        String[] first = rows.get(1).split(",");
        refused(rows, r -> edited(r, 2, 4, Long.parseLong(first[4])), "line 2, live over [" + first[1] + ", "
                + first[2] + "), bytes " + first[4], "line 3, live over [" + second[1] + ", " + second[2]
                + "), bytes " + first[4], "are live together at node", "and share bytes");
        refused(rows, r -> edited(r, 0, 0, "id,lower,upper,size"), "line 1: expected the header "
                + "'id,lower,upper,size,offset'");
    }

    @Test
    void thePlanJsonOfEverySubgraphComesBackThroughEveryCommand() throws IOException {
        Path plan = dir.resolve("greedy.json");
        Files.writeString(plan, Cli.run("plan", MODEL.toString(), "--planner", "greedy-by-size", "--json").out());
        JsonNode replanned = Cli.run("plan", MODEL.toString(), "--plan", plan.toString(), "--json").json();
        JsonNode original = new ObjectMapper().readTree(plan.toFile());
        assertEquals(original.get("subgraphs").get(0).get("tensors"), replanned.get("subgraphs").get(0).get("tensors"));
        Cli.Result compare = Cli.run("compare-planners", MODEL.toString(), "--plan", plan.toString(), "--time-limit",
                "0.1", "--json");
        assertEquals(0, compare.status(), compare.err());
        JsonNode row = compare.json().get("planners").get(0);
        assertEquals("greedy.json", row.get("name").asText());
        assertEquals(original.get("subgraphs").get(0).get("arena_bytes").asLong(), row.get("arena_bytes").asLong());
        Path report = dir.resolve("report");
        Cli.Result html = Cli.run("report", MODEL.toString(), "--plan", plan.toString(), "--time-limit", "0.1",
                "--out", report.toString());
        assertEquals(0, html.status(), html.err());
        assertTrue(Files.readString(report.resolve("report.html")).contains("greedy.json"));

        ObjectNode moved = (ObjectNode) original.get("subgraphs").get(0).get("tensors").get(0);
        moved.put("offset", moved.get("offset").asLong() + 1);
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, original.toString());
        Cli.Result refused = Cli.run("run", MODEL.toString(), "--plan", broken.toString());
        assertEquals(2, refused.status());
        assertTrue(refused.err().contains(broken + ", subgraph 0: subgraphs[0].tensors[0]: tensor 0 'input_1' at offset "
                + moved.get("offset") + ", which is not a multiple of the tensor alignment 64"), refused.err());
        Path none = dir.resolve("none.json");
        Files.writeString(none, "{\"subgraphs\": []}");
        Cli.Result empty = Cli.run("plan", MODEL.toString(), "--plan", none.toString());
        assertEquals(2, empty.status());
        assertTrue(empty.err().contains(none + " has no subgraph 0: a plan JSON places every subgraph"), empty.err());
        for (String command : List.of("plan", "run")) {
            Cli.Result both = Cli.run(command, MODEL.toString(), "--plan", plan.toString(), "--planner", "tflite");
            assertEquals(2, both.status(), command);
            assertTrue(both.err().contains("--plan and --planner both say where the tensors go: give one"), both.err());
        }
    }

    @Test
    void memoryRefusesABrokenPlanAndOneForOtherShapes() throws IOException {
        Path problem = dir.resolve("problem.csv");
        assertEquals(0, Cli.run("plan", MODEL.toString(), "--export-buffers", problem.toString()).status());
        Path plan = solve(problem, dir.resolve("memory.csv"));
        Cli.Result resized = Cli.run("memory", MODEL.toString(), "--plan", plan.toString(), "--resize-cycle", "2");
        assertEquals(2, resized.status());
        assertTrue(resized.err().contains("--plan fits the model's own shapes"), resized.err());
        List<String> rows = new ArrayList<>(Files.readAllLines(plan));
        rows.remove(2);
        Files.write(plan, rows);
        Cli.Result broken = Cli.run("memory", MODEL.toString(), "--plan", plan.toString(), "--quiet");
        assertEquals(2, broken.status());
        assertTrue(broken.err().contains("memory.csv, subgraph 0: id "), broken.err());
        assertTrue(broken.err().contains(" is missing: tensor "), broken.err());
    }

    /** Writes a plan of the broken rows and checks that every command refuses it with exit 2, saying these. */
    private void refused(List<String> rows, UnaryOperator<List<String>> breaking, String... says) throws IOException {
        Path plan = dir.resolve("good.csv");
        Files.write(plan, breaking.apply(new ArrayList<>(rows)));
        for (String command : List.of("plan", "run")) {
            Cli.Result result = Cli.run(command, MODEL.toString(), "--plan", plan.toString());
            assertEquals(2, result.status(), command + ": " + result.out());
            for (String said : says) {
                assertTrue(result.err().contains(said), command + " should say '" + said + "': " + result.err());
            }
        }
        Files.write(plan, rows);
    }

    private static List<String> without(List<String> rows, int line) {
        rows.remove(line);
        return rows;
    }

    private static List<String> with(List<String> rows, String row) {
        rows.add(row);
        return rows;
    }

    private static List<String> edited(List<String> rows, int line, int field, Object value) {
        String[] cells = rows.get(line).split(",");
        if (line == 0) {
            rows.set(0, value.toString());
            return rows;
        }
        cells[field] = value.toString();
        rows.set(line, String.join(",", cells));
        return rows;
    }

    /** What an outside planner does with the problem: greedy by size, written in MiniMalloc's output format. */
    private static Path solve(Path problem, Path solution) throws IOException {
        List<String> lines = Files.readAllLines(problem);
        BufferSet buffers = MinimallocCsv.parse(lines);
        long[] offsets = new GreedyBySizePlacer().place(buffers).offsets();
        Map<Integer, Long> byId = new HashMap<>();
        for (int i = 0; i < offsets.length; i++) {
            byId.put(buffers.buffers().get(i).id(), offsets[i]);
        }
        List<String> solved = new ArrayList<>(List.of(lines.get(0) + ",offset"));
        for (String line : lines.subList(1, lines.size())) {
            solved.add(line + "," + byId.get(Integer.parseInt(line.split(",")[0])));
        }
        Files.write(solution, solved);
        return solution;
    }

    private static long arena(Path solution) throws IOException {
        return Files.readAllLines(solution).stream().skip(1).map(l -> l.split(","))
                .mapToLong(c -> Long.parseLong(c[3]) + Long.parseLong(c[4])).max().orElse(0);
    }
}
