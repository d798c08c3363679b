package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code releases --compare} end to end, both sides this build, on one small model; and {@code regress} on it. */
class ReleaseCompareCommandTest {
    private static final Path CUSTOM_OP_MODEL = Path.of("tests/models/selfie_segmentation.tflite");
    private static final Path MODEL = Path.of("tests/models/face_detection_short_range.tflite");

    @TempDir
    static Path directory;
    private static Path jar;
    private static Path models;

    /** A jar that runs this build's Main from the test classpath, as a release's jar would. */
    @BeforeAll
    static void launcherJar() throws IOException {
        models = Files.createDirectories(directory.resolve("models"));
        Files.copy(MODEL, models.resolve(MODEL.getFileName()));
        // Needs a custom op neither side's resolver has: found before the rounds and left out.
        Files.copy(CUSTOM_OP_MODEL, models.resolve(CUSTOM_OP_MODEL.getFileName()));
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, Stream.of(System.getProperty("java.class.path")
                .split(File.pathSeparator)).map(p -> Path.of(p).toAbsolutePath().toUri().toString())
                .collect(Collectors.joining(" ")));
        jar = directory.resolve("launcher.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // The manifest is the whole jar.
        }
    }

    @Test
    void bothSidesAlikeGiveIntervalsOpsAndTheSamePlan() throws IOException {
        String sides = jar + "," + jar;
        Cli.Result result = Cli.run("releases", "--compare", sides, "--models-dir", models.toString(), "--rounds", "6",
                "--samples", "1", "--warmup", "1", "--metrics", "invoke,java_plan,ops", "--out",
                directory.resolve("out").toString(), "--json", "--quiet");
        assertEquals(0, result.status(), result.err());
        JsonNode json = new ObjectMapper().readTree(result.out());
        assertEquals("tflite-arena-release-comparison", json.get("format").asText());
        assertEquals(List.of("A", "B", "B", "A", "A", "B", "B", "A", "A", "B", "B", "A"),
                new ObjectMapper().convertValue(json.get("order"), List.class));
        assertEquals(2, json.get("comparisons").size(), "invoke and java_plan");
        for (JsonNode c : json.get("comparisons")) {
            assertEquals("face_detection_short_range.tflite", c.get("model").asText());
            assertTrue(c.get("lo").asDouble() <= c.get("ratio").asDouble()
                    && c.get("ratio").asDouble() <= c.get("hi").asDouble(), c.toString());
            assertTrue(List.of("slower", "faster", "no_change").contains(c.get("verdict").asText()));
        }
        assertTrue(json.get("ops").size() >= 3, "an interval per op type: " + json.get("ops"));
        assertEquals(0, json.get("arenas").size(), "the same build plans alike: " + json.get("arenas"));
        Path written = directory.resolve("out").resolve("compare-launcher-launcher");
        for (String file : List.of("comparison.json", "comparison.md", "comparison.html", "rounds/round-6-B.json")) {
            assertTrue(Files.isRegularFile(written.resolve(file)), file);
        }

        assertEquals("selfie_segmentation.tflite", json.get("not_runnable").get(0).get("model").asText());
        assertTrue(json.get("not_runnable").get(0).get("why").asText().contains("Convolution2DTransposeBias"));
        assertEquals(0, json.get("not_compared").size(), json.toString());
        assertTrue(result.err().contains("selfie_segmentation.tflite left out, neither side can run it"),
                result.err());
        Cli.Result gate = Cli.run("regress", written.resolve("comparison.json").toString(), "--max-latency-growth",
                "1000");
        assertEquals(0, gate.status(), gate.out());
        assertTrue(gate.out().contains("1 models compared"), gate.out());
        assertTrue(gate.out().contains("not runnable on either side, not gated: selfie_segmentation.tflite"),
                gate.out());
        Cli.Result all = Cli.run("regress", written.resolve("comparison.json").toString(), "--max-latency-growth",
                "1000", "--require-all");
        assertEquals(1, all.status(), all.out());
        assertTrue(all.out().contains("REGRESSED selfie_segmentation.tflite: neither side can run it"), all.out());
        Cli.Result mixed = Cli.run("regress", "tests/releases/baseline/2.20.json",
                written.resolve("comparison.json").toString());
        assertEquals(2, mixed.status());
        assertTrue(mixed.err().contains("is a comparison: give it alone"), mixed.err());
    }

    /**
     * The models neither side can run are found before the first round, each named in a line with the op that is
     * missing, and the rounds needed are counted over the others.
     */
    @Test
    void modelsNeitherSideRunsAreLeftOutBeforeTheRoundsAndTooFewRoundsAreRefused() {
        Cli.Result result = Cli.run("releases", "--compare", jar + "," + jar, "--models-dir", "tests/models",
                "--rounds", "8", "--out", directory.resolve("few").toString());
        assertEquals(2, result.status());
        assertTrue(result.err().contains("releases: selfie_segmentation.tflite left out, neither side can run it: "
                + "subgraph 0, node 244 needs the custom op 'Convolution2DTransposeBias'"), result.err());
        assertTrue(result.err().contains("--rounds 8 is too few: intervals at 95.0% over 12 models need at least 9 "
                + "rounds"), result.err());
    }

    @Test
    void aSideThatIsNeitherAReleaseNorAJarIsRefused() {
        Cli.Result result = Cli.run("releases", "--compare", "2.99,2.20", "--models-dir", models.toString(), "--out",
                directory.resolve("bad").toString());
        assertEquals(2, result.status());
        assertTrue(result.err().contains("no planner rules for TFLite 2.99; known releases: 2.12, 2.15, 2.18, 2.19, "
                + "2.20"), result.err());
    }
}
