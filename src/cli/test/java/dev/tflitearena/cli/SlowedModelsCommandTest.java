package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.graph.tflite.TfliteFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** slowed-models: the slowed copies compute what the originals do, and take longer. */
class SlowedModelsCommandTest {
    private static final String MODEL = "face_detection_short_range.tflite";
    /** Needs a custom op the builtin resolver lacks: skipped. */
    private static final String CUSTOM = "selfie_segmentation.tflite";

    @TempDir
    Path temp;

    private Path models() throws IOException {
        Path models = Files.createDirectories(temp.resolve("models"));
        Files.copy(TestModels.named(MODEL), models.resolve(MODEL));
        Files.copy(TestModels.named(CUSTOM), models.resolve(CUSTOM));
        return models;
    }

    @Test
    void theSlowedModelComputesTheSameOutputsAndTakesLonger() throws IOException {
        Path models = models();
        Path out = temp.resolve("out");
        Cli.Result r = run("slowed-models", "--by", "20", "--models-dir", models.toString(), "--out", out.toString(),
                "--pairs", "6", "--quiet");
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().contains("skipped " + CUSTOM + ": "), r.out());
        assertFalse(Files.exists(out.resolve(CUSTOM)));

        JsonNode report = new ObjectMapper().readTree(out.resolve("slowdown.json").toFile());
        assertEquals(20.0, report.get("target_percent").asDouble());
        assertEquals(6, report.get("pairs").asInt());
        assertEquals(InterpreterSettings.DEFAULT.resolverName(), report.get("resolver").asText());
        assertEquals(InterpreterSettings.DEFAULT_THREADS, report.get("threads").asInt());
        JsonNode slowed = report.get("models").get(0);
        assertEquals(MODEL, slowed.get("model").asText());
        int operations = slowed.get("operations").asInt();
        assertTrue(operations > 0, slowed.toString());
        assertTrue(slowed.get("measured_percent").asDouble() > 0, slowed.toString());
        JsonNode iqr = slowed.get("measured_iqr_percent");
        // The slowdown is B's fastest sample over A's; the quartiles are of the pairs' ratios, which need not hold it.
        assertTrue(iqr.get(0).asDouble() <= iqr.get(1).asDouble(), slowed.toString());
        assertTrue(slowed.get("slowed_invoke_ms").asDouble() > 0, slowed.toString());
        assertTrue(slowed.get("original_invoke_ms").asDouble() > 0, slowed.toString());
        assertTrue(r.out().contains(MODEL), r.out());
        JsonNode skipped = report.get("models").get(1);
        assertEquals(CUSTOM, skipped.get("model").asText());
        assertTrue(skipped.get("error").asText().contains("Convolution2DTransposeBias"), skipped.toString());

        byte[] original = Files.readAllBytes(models.resolve(MODEL));
        byte[] slower = Files.readAllBytes(out.resolve(MODEL));
        assertEquals(TfliteFile.read(original).subgraph(0).operators().size() + operations,
                TfliteFile.read(slower).subgraph(0).operators().size());
        try (NativeModel a = NativeModel.fromBytes(original, MODEL);
             NativeModel b = NativeModel.fromBytes(slower, "slowed " + MODEL);
             NativeInterpreter x = NativeInterpreter.build(a, InterpreterSettings.DEFAULT);
             NativeInterpreter y = NativeInterpreter.build(b, InterpreterSettings.DEFAULT)) {
            x.allocateTensors();
            y.allocateTensors();
            SeededInputs.feed(1, x, y);
            x.invoke();
            y.invoke();
            assertEquals(x.outputCount() + 1, y.outputCount());
            for (int i = 0; i < x.outputCount(); i++) {
                assertArrayEquals(x.readOutput(i), y.readOutput(i), "output " + i);
            }
        }
    }

    @Test
    void badInputIsRefusedInOneLine() throws IOException {
        Path models = models();
        String out = temp.resolve("out").toString();
        assertRefused("--by 0: the slowdown is a percent above 0 and at most 100",
                "--by", "0", "--models-dir", models.toString(), "--out", out);
        assertRefused("--by 101: the slowdown is a percent above 0 and at most 100",
                "--by", "101", "--models-dir", models.toString(), "--out", out);
        assertRefused("--by -2.5: the slowdown is a percent above 0 and at most 100",
                "--by", "-2.5", "--models-dir", models.toString(), "--out", out);
        assertRefused("--pairs 1: the measurement needs at least 2 pairs",
                "--by", "5", "--models-dir", models.toString(), "--out", out, "--pairs", "1");
        assertRefused(temp.resolve("nowhere") + ": no such directory",
                "--by", "5", "--models-dir", temp.resolve("nowhere").toString(), "--out", out);
        assertRefused("is the models' directory: the slowed models would replace the originals",
                "--by", "5", "--models-dir", models.toString(), "--out", models.toString());
        assertRefused("Missing required option: '--by=PERCENT'", "--models-dir", models.toString(), "--out", out);
        assertFalse(Files.exists(Path.of(out)), "nothing written");
    }

    private static void assertRefused(String message, String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "slowed-models";
        System.arraycopy(args, 0, command, 1, args.length);
        Cli.Result r = run(command);
        assertEquals(Main.EXIT_ERROR, r.status(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertEquals("", r.out());
    }
}
