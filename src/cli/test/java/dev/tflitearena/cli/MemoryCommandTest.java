package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.isolation.Supervisor;
import dev.tflitearena.memory.InputShapes;
import dev.tflitearena.memory.JvmMalloc;
import dev.tflitearena.memory.MemoryProfile;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryCommandTest {
    private static final List<String> STAGES = List.of("before loading", "after loading", "after allocating",
            "after 1 invoke", "after " + MemoryProfile.INVOKES + " invokes");

    private static String run(String... args) {
        Cli.Result r = Cli.run(memory(args));
        assertEquals(0, r.status(), r.out() + "\n" + r.err());
        return r.out();
    }

    /** The memory command's arguments on the command line, which declares --quiet for every command. */
    static String[] memory(String... args) {
        String[] line = new String[args.length + 1];
        line[0] = "memory";
        System.arraycopy(args, 0, line, 1, args.length);
        return line;
    }

    @Test
    void reportsEveryStageForTheNativeAndTheJavaPlan() throws Exception {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        JsonNode root = new ObjectMapper().readTree(run(model, "--planner", "best-of", "--json"));
        JsonNode runs = root.get("runs");
        assertEquals(2, runs.size());
        assertEquals("native", runs.get(0).get("planner").asText());
        assertEquals("best-of", runs.get(1).get("planner").asText());
        for (JsonNode r : runs) {
            JsonNode samples = r.get("samples");
            assertEquals(STAGES.size(), samples.size());
            for (int i = 0; i < STAGES.size(); i++) {
                assertEquals(STAGES.get(i), samples.get(i).get("stage").asText());
                assertTrue(samples.get(i).get("rss_bytes").asLong() > 0);
                assertTrue(samples.get(i).get("heap_in_use_bytes").asLong() > 0);
            }
            // Allocating the tensors takes native memory: the arena at least. The JVM's own mallocs come and go
            // by megabytes meanwhile; this module's test JVM tracks them (Native Memory Tracking), so they are out.
            assertTrue(outsideJvm(samples.get(2)) > outsideJvm(samples.get(1)), samples.toString());
        }
    }

    private static long outsideJvm(JsonNode sample) {
        assertTrue(sample.get("heap_outside_jvm_bytes").isNumber(), sample.toString());
        return sample.get("heap_outside_jvm_bytes").asLong();
    }

    @Test
    void printsATablePerPlanAndTheGrowthVerdict() {
        String text = run(TestModels.named("face_detection_short_range.tflite").toString(), "--planner", "native");
        assertEquals(1, text.split("after warm-up", -1).length - 1, text);
        for (String stage : STAGES) {
            assertTrue(text.contains(stage), text);
        }
        assertTrue(text.contains("planner native"), text);
    }

    @Test
    void resizeCycleChangesTheShapeAndReplansAsAFreshSessionWould() throws Exception {
        Path model = TestModels.named("face_detection_short_range.tflite");
        JsonNode root = new ObjectMapper().readTree(run(model.toString(), "--planner", "tflite", "--resize-cycle",
                "5", "--json"));
        assertEquals("input", root.get("input").asText());
        List<String> shapes = new ArrayList<>();
        root.get("shapes").forEach(shape -> shapes.add(shape.asText()));
        // The defaults: batch 2 and 4, half and double height and width; this model takes them all.
        assertEquals(List.of("1x128x128x3", "2x128x128x3", "4x128x128x3", "1x64x64x3", "1x256x256x3"), shapes);
        assertEquals(0, root.get("refused").size());
        JsonNode runs = root.get("runs");
        assertEquals(List.of("native", "tflite"), List.of(runs.get(0).get("planner").asText(),
                runs.get(1).get("planner").asText()));
        try (TfLiteModel loaded = TfLiteModel.load(model)) {
            for (JsonNode r : runs) {
                SessionOptions options = SessionOptions.DEFAULT.withPlanner(r.get("planner").asText());
                JsonNode fixed = r.get("fixed").get("steps");
                JsonNode resized = r.get("resized").get("steps");
                assertEquals(6, fixed.size());
                assertEquals(6, resized.size());
                Set<Long> arenas = new HashSet<>();
                for (int k = 0; k < resized.size(); k++) {
                    assertEquals(shapes.get(0), shape(fixed.get(k)));
                    assertEquals(fixed.get(0).get("arena_bytes"), fixed.get(k).get("arena_bytes"));
                    String shape = shape(resized.get(k));
                    assertEquals(shapes.get(k % shapes.size()), shape);
                    if (k > 0) {
                        assertNotEquals(shape(resized.get(k - 1)), shape);
                    }
                    long arena = resized.get(k).get("arena_bytes").asLong();
                    arenas.add(arena);
                    try (Session fresh = loaded.newSession(options)) {
                        fresh.resizeInput(0, InputShapes.parse(shape));
                        assertEquals(fresh.arenaBytes(), arena, r.get("planner") + " at " + shape);
                    }
                }
                assertTrue(arenas.size() > 2, arenas.toString());
                for (String run : List.of("fixed", "resized")) {
                    JsonNode node = r.get(run);
                    assertTrue(node.get("peak_source").asText().contains("Vm"), node.toString());
                    assertTrue(node.get("heap_in_use_bytes").asLong() > 0, node.toString());
                    assertTrue(node.has("heap_mapped_bytes"), node.toString());
                    JsonNode steps = node.get("steps");
                    long last = steps.get(steps.size() - 1).get("peak_rss_bytes").asLong();
                    assertEquals(last, node.get("peak_rss_bytes").asLong());
                    assertEquals(last - node.get("start_rss_bytes").asLong(), node.get("peak_rss_rise_bytes").asLong());
                    for (int k = 1; k < steps.size(); k++) {
                        // A high-water mark, reset only before the run: it never falls within one.
                        assertTrue(steps.get(k).get("peak_rss_bytes").asLong()
                                >= steps.get(k - 1).get("peak_rss_bytes").asLong(), steps.toString());
                    }
                }
            }
        }
    }

    private static String shape(JsonNode step) {
        List<Integer> dims = new ArrayList<>();
        step.get("shape").forEach(d -> dims.add(d.asInt()));
        return InputShapes.format(dims.stream().mapToInt(Integer::intValue).toArray());
    }

    @Test
    void shapesTheModelRefusesAreListedWithTflitesReasonAndLeftOut() throws Exception {
        JsonNode root = new ObjectMapper().readTree(run(TestModels.named("face_detection_full_range.tflite")
                .toString(), "--planner", "native", "--resize-cycle", "2", "--shapes", "1x96x96x3,2x192x192x3",
                "--json"));
        assertEquals("[\"1x192x192x3\",\"2x192x192x3\"]", root.get("shapes").toString());
        JsonNode refused = root.get("refused");
        assertEquals(1, refused.size());
        assertEquals("1x96x96x3", refused.get(0).get("shape").asText());
        assertEquals("native", refused.get(0).get("planner").asText());
        assertEquals("allocate", refused.get(0).get("step").asText());
        assertTrue(refused.get(0).get("signal").isNull(), refused.toString());
        assertTrue(refused.get(0).get("reason").asText().contains("are not broadcastable"), refused.toString());
    }

    @Test
    void aShapeThatCrashesTfliteIsListedWithTheStepAndSignalAndTheCycleGoesOn(@TempDir Path dir) throws Exception {
        Path model = Files.write(dir.resolve("collapsing.tflite"), SampleModels.collapsingConvolution(8));
        JsonNode root = new ObjectMapper().readTree(run(model.toString(), "--planner", "tflite", "--resize-cycle",
                "4", "--json"));
        // The defaults but half the size, where the convolution's map is 0x0.
        List<String> shapes = List.of("1x8x8x4", "2x8x8x4", "4x8x8x4", "1x16x16x4");
        List<String> cycled = new ArrayList<>();
        root.get("shapes").forEach(shape -> cycled.add(shape.asText()));
        assertEquals(shapes, cycled);
        JsonNode refused = root.get("refused");
        assertEquals(1, refused.size(), refused.toString());
        JsonNode crash = refused.get(0);
        assertEquals("1x4x4x4", crash.get("shape").asText());
        assertEquals("native", crash.get("planner").asText());
        assertEquals("invoke", crash.get("step").asText());
        assertEquals("SIGFPE", crash.get("signal").asText());
        assertTrue(crash.get("reason").asText().startsWith("crashed: SIGFPE"), crash.toString());
        for (JsonNode r : root.get("runs")) {
            JsonNode resized = r.get("resized").get("steps");
            assertEquals(5, resized.size());
            for (int k = 0; k < resized.size(); k++) {
                assertEquals(shapes.get(k % shapes.size()), shape(resized.get(k)));
            }
        }
    }

    @Test
    void aModelWhoseOtherShapesAllCrashTfliteIsNotResizableAndSaysWhere(@TempDir Path dir) throws IOException {
        Path model = Files.write(dir.resolve("collapsing.tflite"), SampleModels.collapsingConvolution(8));
        Cli.Result result = Cli.run("memory", model.toString(), "--planner", "native", "--resize-cycle", "2",
                "--shapes", "1x4x4x4");
        assertEquals(Main.EXIT_ERROR, result.status(), result.err());
        assertTrue(result.err().contains("not resizable: input 'input' 1x8x8x4; 1x4x4x4 refused at invoke "
                + "(planner native): crashed: SIGFPE"), result.err());
    }

    @Test
    void aCrashOfTheCycleItselfNamesTheShape(@TempDir Path dir) throws IOException {
        // At its own shape the map is already 0x0: the probe of 1x8x8x4 passes, the cycle's first invoke crashes.
        Path model = Files.write(dir.resolve("collapsed.tflite"), SampleModels.collapsingConvolution(4));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Supervisor.run(Main.class, List.of(JvmMalloc.OPTION), List.of("memory", model.toString(),
                        "--planner", "native", "--resize-cycle", "1", "--shapes", "1x8x8x4"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(Supervisor.EXIT_CRASHED, status, message);
        assertTrue(message.contains("crashed the process that ran this command while invoking at 1x4x4x4 "
                + "(planner native, fixed run, step 0 of the resize cycle): SIGFPE"), message);
        Files.delete(Path.of(message.substring(message.lastIndexOf(" is ") + 4, message.length() - 2)));
    }

    @Test
    void aModelThatTakesNoOtherShapeIsRefusedWithTflitesReason() {
        Cli.Result result = Cli.run("memory", TestModels.named("face_detection_full_range.tflite").toString(),
                "--planner", "native", "--resize-cycle", "3", "--shapes", "1x96x96x3");
        assertEquals(Main.EXIT_ERROR, result.status(), result.err());
        assertEquals("", result.out());
        assertTrue(result.err().contains("not resizable: input 'input' 1x192x192x3; 1x96x96x3 refused at allocate "
                + "(planner native): Given shapes, [1,6,6,96] and [1,12,12,96], are not broadcastable."), result.err());
    }

    @Test
    void resizeCyclePrintsATablePerPlanWithBothRuns() {
        String text = run(TestModels.named("face_detection_short_range.tflite").toString(), "--planner", "best-of",
                "--resize-cycle", "2", "--shapes", "1x64x64x3");
        assertTrue(text.contains("cycling through 1x128x128x3 -> 1x64x64x3"), text);
        for (String planner : List.of("native", "best-of")) {
            assertTrue(text.contains("planner " + planner), text);
        }
        assertEquals(2, text.split("peak RSS above the run's start: fixed", -1).length - 1, text);
        assertTrue(text.contains("resized     1  1x64x64x3"), text);
        assertTrue(text.contains("resized     2  1x128x128x3"), text);
    }

    @Test
    void shapesAreCheckedAndOnlyGoWithAResizeCycle() {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        assertTrue(Cli.run("memory", model, "--shapes", "1x64x64x3").err().contains("--shapes is for --resize-cycle"));
        assertTrue(Cli.run("memory", model, "--resize-cycle", "1", "--shapes", "1x0").err().contains("not a shape"));
        assertTrue(Cli.run("memory", model, "--resize-cycle", "0").err().contains("at least 1"));
    }
}
