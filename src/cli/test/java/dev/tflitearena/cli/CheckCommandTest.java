package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.tflm.TflmAllocations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 'check' before flashing or serving: every real model baked for TFLM and for TFLite holds, and each class of
 * broken entry is refused, naming what is wrong; 'plan --for tflm' and 'bake --for tflm --replace' find the same.
 */
class CheckCommandTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    @TempDir
    Path temp;

    private Path bake(String target) {
        Path out = temp.resolve("baked-" + target + ".tflite");
        Cli.Result baked = run("bake", MODEL.toString(), "--for", target, "--planner", target.equals("tflm")
                ? "tflm-greedy" : "tflite", "-o", out.toString(), "--quiet");
        assertEquals(0, baked.status(), baked.err());
        return out;
    }

    /** The check of a file, which must exit 1 with a problem containing {@code problem}. */
    private void assertRefused(byte[] model, String name, String problem) throws IOException {
        Path file = Files.write(temp.resolve(name + ".tflite"), model);
        Cli.Result checked = run("check", file.toString(), "--json");
        assertEquals(1, checked.status(), name + ": " + checked.out() + checked.err());
        JsonNode j = checked.json();
        assertFalse(j.get("valid").asBoolean());
        String got = j.get("plans").get(0).get("problem").asText();
        assertTrue(got.contains(problem), name + ": '" + problem + "' not in: " + got);
        Cli.Result text = run("check", file.toString());
        assertTrue(text.out().contains("DOES NOT HOLD: " + got), text.out());
    }

    @Test
    void plansThatHoldPassAndAModelWithoutOneHasNothingToCheck() throws IOException {
        for (String target : List.of("tflm", "tflite")) {
            Cli.Result checked = run("check", bake(target).toString(), "--json");
            assertEquals(0, checked.status(), checked.err());
            JsonNode plan = checked.json().get("plans").get(0);
            assertTrue(plan.get("valid").asBoolean(), plan.toString());
            assertEquals(target.equals("tflm") ? OfflineMemoryAllocation.NAME : BakedPlan.NAME,
                    plan.get("entry").asText());
        }
        Cli.Result none = run("check", MODEL.toString());
        assertEquals(0, none.status(), none.err());
        assertTrue(none.out().contains("carries no plan"), none.out());
    }

    /** The baked TFLM model with its offline entry's int32 values replaced. */
    private byte[] offline(byte[] baked, int version, int subgraphs, UnaryOperator<List<int[]>> edit) {
        TfliteModel read = TfliteFile.read(baked, "baked");
        List<int[]> offsets = new ArrayList<>();
        OfflineMemoryAllocation.of(read).orElseThrow().offsets().forEach(o -> offsets.add(o.clone()));
        List<int[]> edited = edit.apply(offsets);
        return MetadataWriter.put(baked, OfflineMemoryAllocation.NAME, headerEdited(
                OfflineMemoryAllocation.bytes(version, edited), subgraphs), true);
    }

    private static byte[] headerEdited(byte[] entry, int subgraphs) {
        ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.BYTES, subgraphs);
        return entry;
    }

    @Test
    void eachClassOfBrokenTflmEntryIsRefusedByName() throws IOException {
        byte[] baked = Files.readAllBytes(bake("tflm"));
        TflmAllocations allocations = TflmAllocations.of(TfliteFile.read(baked, "baked"));
        // Two tensors that need allocating and live at once, and one that needs allocating at all.
        TflmAllocations.Entry a = null;
        TflmAllocations.Entry b = null;
        for (TflmAllocations.Entry e : allocations.entries()) {
            for (TflmAllocations.Entry f : allocations.entries()) {
                if (a == null && e.needsAllocating() && f.needsAllocating() && e.id() < f.id()
                        && e.first() <= f.last() && f.first() <= e.last()) {
                    a = e;
                    b = f;
                }
            }
        }
        TflmAllocations.Entry first = a;
        TflmAllocations.Entry second = b;
        for (int version : new int[] {0, 2, -1}) {
            assertRefused(offline(baked, version, 1, o -> o), "version" + version, "version " + version
                    + "; TFLM's offline plans are version 1");
        }
        for (int subgraphs : new int[] {0, 99, -1}) {
            assertRefused(offline(baked, 1, subgraphs, o -> o), "subgraphs" + subgraphs, "declares " + subgraphs
                    + " subgraphs, the model has 1");
        }
        assertRefused(offline(baked, 1, 1, o -> List.of(Arrays.copyOf(o.get(0), o.get(0).length - 1))),
                "count", "offsets for the model's");
        assertRefused(offline(baked, 1, 1, o -> at(o, first, -5)), "negative", "has offset -5, neither an offset nor -1");
        assertRefused(offline(baked, 1, 1, o -> at(o, first, o.get(0)[first.tensor()] + 4)), "misaligned",
                "not a multiple of TFLM's alignment of 16");
        assertRefused(offline(baked, 1, 1, o -> at(o, second, o.get(0)[first.tensor()])), "overlap",
                "share memory while both live");
        assertRefused(offline(baked, 1, 1, o -> at(o, first, 100 << 20)), "far", "an arena inflated for nothing");

        Path overlap = Files.write(temp.resolve("overlap-plan.tflite"),
                offline(baked, 1, 1, o -> at(o, second, o.get(0)[first.tensor()])));
        Cli.Result plan = run("plan", overlap.toString(), "--for", "tflm");
        assertEquals(Main.EXIT_ERROR, plan.status(), plan.out());
        assertTrue(plan.err().contains("the model's offline plan does not hold: ") && plan.err().contains(
                "share memory while both live"), plan.err());
        Cli.Result other = run("plan", overlap.toString(), "--for", "tflm", "--planner", "greedy-by-size",
                "--json");
        assertEquals(0, other.status(), other.err());
        assertTrue(other.json().get("offline_plan_problem").asText().contains("share memory while both live"));
        Cli.Result replaced = run("bake", overlap.toString(), "--for", "tflm", "--planner", "tflm-greedy", "--replace",
                "-o", temp.resolve("replaced.tflite").toString(), "--json");
        assertEquals(0, replaced.status(), replaced.err());
        assertTrue(replaced.json().get("replaced_plan_problem").asText().contains("share memory while both live"));
        assertEquals(0, run("check", temp.resolve("replaced.tflite").toString()).status());
    }

    private static List<int[]> at(List<int[]> offsets, TflmAllocations.Entry e, int offset) {
        offsets.get(e.subgraph())[e.tensor()] = offset;
        return offsets;
    }

    /** The baked TFLite model with its entry's plan edited; the fingerprint stays the model's. */
    private static byte[] tflite(byte[] baked, UnaryOperator<Plan> edit) {
        byte[] entry = TfliteFile.read(baked, "baked").metadata().stream()
                .filter(m -> m.name().equals(BakedPlan.NAME)).findFirst().orElseThrow().data();
        BakedPlan plan = BakedPlan.decode(entry, "baked");
        return MetadataWriter.put(baked, BakedPlan.NAME, new BakedPlan(plan.fingerprint(),
                edit.apply(plan.plan())).encode(), true);
    }

    private static Plan placement(Plan plan, UnaryOperator<Placement> edit) {
        SubgraphPlan sp = plan.subgraphs().get(0);
        List<Placement> placements = new ArrayList<>(sp.placements());
        int i = 0;
        while (!placements.get(i).hasMemory()) {
            i++;
        }
        placements.set(i, edit.apply(placements.get(i)));
        return new Plan(plan.planner(), List.of(new SubgraphPlan(sp.subgraph(), sp.arenaBytes(), sp.persistentBytes(),
                placements)));
    }

    @Test
    void eachClassOfBrokenTfliteEntryIsRefusedByName() throws IOException {
        byte[] baked = Files.readAllBytes(bake("tflite"));
        assertRefused(tflite(baked, p -> placement(p, q -> new Placement(q.tensor(), q.arena(), Long.MAX_VALUE - 63,
                q.bytes(), q.first(), q.last(), q.aliasOf()))), "wrap", "run past the end of the");
        assertRefused(tflite(baked, p -> new Plan(p.planner(), List.of(new SubgraphPlan(Integer.MAX_VALUE,
                p.subgraphs().get(0).arenaBytes(), p.subgraphs().get(0).persistentBytes(),
                p.subgraphs().get(0).placements())))), "index", "names subgraph 2147483647, the graph has subgraphs 0..0");
        assertRefused(tflite(baked, p -> new Plan(p.planner(), List.of(new SubgraphPlan(0,
                p.subgraphs().get(0).arenaBytes() + (256 << 20), p.subgraphs().get(0).persistentBytes(),
                p.subgraphs().get(0).placements())))), "inflated", "its placements need");
        byte[] entry = TfliteFile.read(baked, "baked").metadata().stream()
                .filter(m -> m.name().equals(BakedPlan.NAME)).findFirst().orElseThrow().data();
        byte[] other = MetadataWriter.put(Files.readAllBytes(TestModels.named("face_detection_full_range.tflite")),
                BakedPlan.NAME, entry, false);
        assertRefused(other, "other", "the model is not the one the plan was made from");
        assertRefused(MetadataWriter.put(baked, BakedPlan.NAME, Arrays.copyOf(entry, 40), true), "cut",
                "it cannot be read: ");
    }
}
