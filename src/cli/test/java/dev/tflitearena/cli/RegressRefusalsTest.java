package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static dev.tflitearena.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a gate must refuse rather than pass or fail on: each in one line naming the file, the field or the option,
 * exit status 2. The comparison is one 'releases --compare 2.15,2.20' wrote, on two models.
 */
class RegressRefusalsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path BASELINE = Path.of("tests/releases/baseline/2.20.json");

    @TempDir
    Path temp;

    private Path comparison(String name, Consumer<ObjectNode> edit) throws IOException {
        ObjectNode tree;
        try (InputStream in = RegressRefusalsTest.class.getResourceAsStream("/regress/comparison.json")) {
            tree = (ObjectNode) JSON.readTree(in);
        }
        edit.accept(tree);
        return Files.writeString(temp.resolve(name + ".json"), JSON.writeValueAsString(tree));
    }

    private static ObjectNode first(ObjectNode tree) {
        return (ObjectNode) tree.get("comparisons").get(0);
    }

    private static void assertRefused(String expected, String... args) {
        Cli.Result r = run(args);
        assertEquals(Main.EXIT_ERROR, r.status(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(expected), "'" + expected + "' not in: " + r.err());
    }

    @Test
    void allowancesThatTurnTheGateOffOrFailItAlwaysAreRefused() throws IOException {
        String good = comparison("good", t -> { }).toString();
        assertEquals(1, run("regress", good).status(), "the comparison itself regresses (2.20 is slower)");
        for (String value : new String[] {"NaN", "Infinity", "-1"}) {
            assertRefused("--max-arena-growth " + Double.parseDouble(value) + ": an allowance is a finite percentage",
                    "regress", good, "--max-arena-growth", value);
            assertRefused("--max-latency-growth " + Double.parseDouble(value) + ": an allowance is a finite",
                    "regress", good, "--max-latency-growth", value);
        }
        assertRefused("third.json: one file too many", "regress", BASELINE.toString(), BASELINE.toString(),
                temp.resolve("third.json").toString());
    }

    @Test
    void aComparisonAGateCannotTrustIsRefusedByField() throws IOException {
        assertRefused("field comparisons is empty", "regress",
                comparison("empty", t -> t.set("comparisons", JSON.createArrayNode())).toString());
        assertRefused("version 99; this release reads version 1", "regress",
                comparison("v99", t -> t.put("version", 99)).toString());
        assertRefused("field comparisons[0].lo: Cannot map `null` into type `double`", "regress",
                comparison("lo", t -> first(t).putNull("lo")).toString());
        assertRefused("field comparisons[0].hi", "regress", comparison("hi", t -> first(t).remove("hi")).toString());
        assertRefused("comparisons[0]: field verdict 'worse'; the verdicts: slower, faster, no_change", "regress",
                comparison("verdict", t -> first(t).put("verdict", "worse")).toString());
        assertRefused("field comparisons[0].ratio: Cannot deserialize value of type `double` from String", "regress",
                comparison("ratio", t -> first(t).put("ratio", "fast")).toString());
        assertRefused("comparisons[0]: field metric: no metric 'latency'", "regress",
                comparison("metric", t -> first(t).put("metric", "latency")).toString());
        assertRefused("field a missing", "regress", comparison("side", t -> t.remove("a")).toString());
        Path good = comparison("cut", t -> { });
        Files.writeString(good, Files.readString(good).substring(0, 200));
        assertRefused("cut.json: not JSON: Unexpected end-of-input", "regress", good.toString());
        Path report = comparison("report", t -> t.put("format", "tflite-arena-release-report"));
        assertRefused("report.json: tflite-arena-release-report version 1; this release reads version 2", "regress",
                report.toString(), BASELINE.toString());
        ArrayNode none = JSON.createArrayNode();
        assertRefused("not a tflite-arena-release-comparison file (format 'null')", "regress",
                Files.writeString(temp.resolve("array.json"), none.toString()).toString());
    }

    @Test
    void releasesCompareRefusesBeforeAnyRoundWhatCannotBeCompared() throws IOException {
        Path empty = Files.createDirectories(temp.resolve("empty"));
        Path corrupt = Files.write(temp.resolve("corrupt.jar"), new byte[] {1, 2, 3});
        Path other = temp.resolve("other.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.example.Main");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(other), manifest)) {
            jar.putNextEntry(new JarEntry("org/example/Main.class"));
        }
        String out = temp.resolve("out").toString();
        String sides = corrupt + "," + other;
        assertRefused(empty + ": no .tflite model in it, nothing to compare", "releases", "--compare", sides,
                "--models-dir", empty.toString(), "--out", out);
        assertRefused("--samples 0, --warmup 2: a round takes at least 1 sample", "releases", "--compare", sides,
                "--samples", "0", "--out", out);
        assertRefused(corrupt + ": not a runnable jar of this project", "releases", "--compare", sides, "--out", out);
        assertRefused(other + ": not a runnable jar of this project (its Main-Class is org.example.Main", "releases",
                "--compare", other + "," + other, "--out", out);
    }
}
