package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bake --for tflm, and the baked plan as plan, compare-planners and inspect --diff show it. */
class BakeCommandTest {
    @TempDir
    Path temp;

    private Path sample(String name, byte[] model) throws IOException {
        return Files.write(temp.resolve(name + ".tflite"), model);
    }

    @Test
    void bakesTheProvenPlanAndTflmsGreedyPlannerKeepsIt() throws IOException {
        Path model = sample("int8_convnet", SampleModels.int8ConvNet());
        Path out = temp.resolve("baked.tflite");
        Cli.Result baked = run("bake", model.toString(), "--for", "tflm", "-o", out.toString(), "--json");
        assertEquals(0, baked.status(), baked.err());
        JsonNode j = baked.json();
        assertEquals("optimal", j.get("planner").asText());
        assertEquals(16, j.get("alignment").asInt());
        long arena = j.get("arena_bytes").asLong();
        assertEquals(j.get("lower_bound_bytes").asLong(), arena);
        assertTrue(arena < j.get("tflm_greedy_arena_bytes").asLong(), j.toString());
        assertTrue(j.get("optimal_proven").asBoolean());
        ArenaFields.assertNamed(j, "arena_bytes", "tflm_greedy_arena_bytes");
        int bakedTensors = j.get("tensors_baked").asInt();
        assertEquals(TfliteFile.read(out).subgraphs().get(0).tensors().size(),
                bakedTensors + j.get("tensors_constant").asInt() + j.get("tensors_online").size());

        Cli.Result plan = run("plan", out.toString(), "--for", "tflm", "--json");
        assertEquals(0, plan.status(), plan.err());
        assertEquals("tflm-greedy", plan.json().get("planner").asText());
        assertEquals(arena, plan.json().get("arena_bytes").asLong(), "TFLM's planner keeps the baked plan");
        assertEquals(bakedTensors, plan.json().get("offline_offsets_kept").asInt());
        Cli.Result fresh = run("plan", model.toString(), "--for", "tflm", "--json");
        assertEquals(j.get("tflm_greedy_arena_bytes").asLong(), fresh.json().get("arena_bytes").asLong(),
                "without the plan, TFLM's own");

        Cli.Result diff = run("inspect", model.toString(), "--diff", out.toString(), "--json");
        assertEquals(0, diff.status(), diff.err());
        assertEquals(0, diff.json().get("changes").size(), "no tensor changed");
        assertEquals(1, diff.json().get("buffers").get("difference").asInt());
        JsonNode metadata = diff.json().get("metadata");
        assertEquals(1, metadata.size());
        assertEquals(OfflineMemoryAllocation.NAME, metadata.get(0).get("name").asText());
        assertEquals("added", metadata.get(0).get("status").asText());

        Cli.Result table = run("compare-planners", out.toString(), "--for", "tflm", "--time-limit", "2", "--quiet");
        assertEquals(0, table.status(), table.err());
        assertTrue(table.out().lines().anyMatch(l -> l.startsWith("offline plan") && l.contains(String.format("%,d",
                arena))), table.out());
    }

    @Test
    void aModelWithAnOfflinePlanIsRefusedUnlessReplaced() throws IOException {
        Path model = sample("offline", SampleModels.tflmOfflinePlan());
        Path out = temp.resolve("baked.tflite");
        Cli.Result refused = run("bake", model.toString(), "--for", "tflm", "-o", out.toString());
        assertEquals(Main.EXIT_ERROR, refused.status());
        assertTrue(refused.err().contains("holds an offline plan already (metadata 'OfflineMemoryAllocation'); "
                + "--replace writes a new one over it"), refused.err());
        assertFalse(Files.exists(out));

        // The sample's own plan: a at 512, the rest online, as TFLM's allocator places them at 16.
        Cli.Result before = run("plan", model.toString(), "--for", "tflm", "--json");
        assertEquals(0, before.status(), before.err());
        assertArrayEquals(new long[]{512, 640, 336, 0}, offsets(before.json()));
        assertEquals(1, before.json().get("offline_offsets_kept").asInt());

        Cli.Result replaced = run("bake", model.toString(), "--for", "tflm", "-o", out.toString(), "--replace",
                "--planner", "best-of", "--json");
        assertEquals(0, replaced.status(), replaced.err());
        assertEquals(1, TfliteFile.read(out).metadata().stream()
                .filter(m -> m.name().equals(OfflineMemoryAllocation.NAME)).count());
        Cli.Result after = run("plan", out.toString(), "--for", "tflm", "--json");
        assertEquals(4, after.json().get("offline_offsets_kept").asInt());
        assertEquals(replaced.json().get("arena_bytes").asLong(), after.json().get("arena_bytes").asLong());
    }

    private static long[] offsets(JsonNode plan) {
        JsonNode tensors = plan.get("tensors");
        long[] offsets = new long[tensors.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[tensors.get(i).get("index").asInt()] = tensors.get(i).get("offset").asLong();
        }
        return offsets;
    }

    @Test
    void variablesAreLeftToTflmWithTheReason() throws IOException {
        Path model = sample("svdf_state", SampleModels.svdfState());
        Cli.Result r = run("bake", model.toString(), "--for", "tflm", "-o", temp.resolve("b.tflite").toString(),
                "--planner", "tflm-greedy", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode online = r.json().get("tensors_online");
        assertTrue(online.size() > 0);
        for (JsonNode t : online) {
            assertTrue(t.get("why").asText().startsWith("variable: TFLM allocates it in its persistent tail"), t.toString());
        }
        assertEquals(r.json().get("tflm_greedy_arena_bytes").asLong(), r.json().get("arena_bytes").asLong());
        Cli.Result text = run("bake", model.toString(), "--for", "tflm", "-o", temp.resolve("c.tflite").toString());
        assertTrue(text.out().contains("left to TFLM"), text.out());
        assertTrue(text.out().contains("variable: TFLM allocates it"), text.out());
    }

    @Test
    void badInputIsRefusedNamingWhatIsWrong() throws IOException {
        byte[] model = SampleModels.int8ConvNet();
        Path truncated = Files.write(temp.resolve("truncated.tflite"), Arrays.copyOf(model, model.length / 3));
        Path out = temp.resolve("o.tflite");
        Cli.Result corrupt = run("bake", truncated.toString(), "--for", "tflm", "-o", out.toString());
        assertEquals(Main.EXIT_ERROR, corrupt.status());
        assertTrue(corrupt.err().contains(truncated.toString()), corrupt.err());
        assertFalse(Files.exists(out));

        Path good = sample("m", model);
        Cli.Result planner = run("bake", good.toString(), "--for", "tflm", "-o", out.toString(), "--planner", "nope");
        assertEquals(Main.EXIT_ERROR, planner.status());
        assertTrue(planner.err().contains("unknown planner 'nope'; valid: "), planner.err());
        Cli.Result runtime = run("bake", good.toString(), "--for", "tfjs", "-o", out.toString());
        assertEquals(Main.EXIT_ERROR, runtime.status());
        assertTrue(runtime.err().contains("tflm"), runtime.err());
        Cli.Result alignment = run("bake", good.toString(), "--for", "tflm", "-o", out.toString(), "--alignment", "12");
        assertEquals(Main.EXIT_ERROR, alignment.status());
        assertTrue(alignment.err().contains("power of two"), alignment.err());
        Cli.Result nowhere = run("bake", good.toString(), "--for", "tflm", "-o", "/no/such/dir/o.tflite");
        assertEquals(Main.EXIT_ERROR, nowhere.status());
        assertTrue(nowhere.err().contains("no such directory /no/such/dir"), nowhere.err());

        Path csv = Files.writeString(temp.resolve("b.csv"), "id,lower,upper,size\n0,0,1,10\n");
        Cli.Result notModel = run("plan", csv.toString(), "--for", "tflm");
        assertEquals(Main.EXIT_ERROR, notModel.status());
        assertTrue(notModel.err().contains("--for tflm plans a model (.tflite)"), notModel.err());
        Cli.Result mixed = run("plan", good.toString(), "--for", "tflm", "--release-inputs");
        assertEquals(Main.EXIT_ERROR, mixed.status());
        assertTrue(mixed.err().contains("--for tflm follows TFLM's rules as they are"), mixed.err());
    }
}
