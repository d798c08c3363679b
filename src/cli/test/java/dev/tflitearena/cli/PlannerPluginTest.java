package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18: the example planners of examples/spi, compiled here into a jar of their own, join the commands
 * by name when the jar is on the classpath of the CLI's JVM.
 */
class PlannerPluginTest {
    private static final Path SOURCES = Path.of("examples/spi");
    private static final Path MODEL = TestModels.named("hand_landmark_lite.tflite");

    @TempDir
    static Path dir;

    static Path jar;

    @BeforeAll
    static void buildThePluginJar() throws IOException {
        jar = buildJar(SOURCES, dir.resolve("planners.jar"));
    }

    /** Compiles the .java files of {@code sources} and jars the classes with the sources' META-INF. */
    private static Path buildJar(Path sources, Path jar) throws IOException {
        Path classes = Files.createDirectories(jar.resolveSibling(jar.getFileName() + ".classes"));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp",
                System.getProperty("java.class.path")));
        try (Stream<Path> files = Files.list(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, compiler.run(null, null, null, args.toArray(String[]::new)), sources + " compiles");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            add(out, classes, classes);
            add(out, sources, sources.resolve("META-INF"));
        }
        return jar;
    }

    private static void add(JarOutputStream out, Path root, Path from) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(root.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, (OutputStream) out);
                out.closeEntry();
            }
        }
    }

    private static Cli.Result cli(String... args) {
        return Cli.runJvm(List.of(jar), Map.of(), args);
    }

    @Test
    void aPlacerAndAPlannerFromAnotherJarJoinEveryCommandByName() throws IOException {
        JsonNode plan = cli("plan", MODEL.toString(), "--planner", "first-fit", "--json").json();
        assertEquals("first-fit", plan.get("planner").asText());
        JsonNode noReuse = cli("plan", MODEL.toString(), "--planner", "no-reuse", "--json").json();
        assertTrue(noReuse.get("subgraphs").get(0).get("arena_bytes").asLong()
                > plan.get("subgraphs").get(0).get("arena_bytes").asLong(), "no reuse costs more");

        for (String planner : List.of("first-fit", "no-reuse")) {
            Cli.Result run = cli("run", MODEL.toString(), "--planner", planner, "--invokes", "1", "--json");
            assertEquals(0, run.status(), run.err());
            assertTrue(run.json().get("outputs_identical").asBoolean());
            assertEquals(planner, run.json().get("planner").asText());
        }

        Cli.Result compare = cli("compare-planners", MODEL.toString(), "--time-limit", "0.1", "--json");
        assertEquals(0, compare.status(), compare.err());
        List<String> names = new ArrayList<>();
        compare.json().get("planners").forEach(p -> names.add(p.get("name").asText()));
        assertTrue(names.containsAll(List.of("tflite", "optimal", "first-fit", "no-reuse")), names.toString());

        Path buffers = Path.of("tests/data/minimalloc/A.1048576.csv");
        Cli.Result bare = cli("plan", buffers.toString(), "--planner", "first-fit", "--json");
        assertEquals(0, bare.status(), bare.err());
        assertEquals("first-fit", bare.json().get("planner").asText());

        Path report = dir.resolve("report");
        Cli.Result html = cli("report", MODEL.toString(), "--time-limit", "0.1", "--out", report.toString());
        assertEquals(0, html.status(), html.err());
        assertTrue(Files.readString(report.resolve("report.html")).contains("no-reuse"));

        Cli.Result unknown = cli("plan", MODEL.toString(), "--planner", "none-such");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("first-fit") && unknown.err().contains("no-reuse"), unknown.err());
    }

    @Test
    void aPlannerOfAnotherJarMayNotTakeABuiltInName() throws IOException {
        Path sources = Files.createDirectories(dir.resolve("clash"));
        Files.writeString(sources.resolve("Clash.java"), """
                package example.clash;

                public final class Clash implements dev.tflitearena.plan.place.Placer {
                    public String name() {
                        return "tflite";
                    }

                    public Solution place(dev.tflitearena.plan.place.BufferSet buffers) {
                        return new Solution(new long[buffers.buffers().size()], false);
                    }
                }
                """);
        Path services = Files.createDirectories(sources.resolve("META-INF/services"));
        Files.writeString(services.resolve("dev.tflitearena.plan.place.Placer"), "example.clash.Clash\n");
        Path clash = buildJar(sources, dir.resolve("clash.jar"));
        Cli.Result result = Cli.runJvm(List.of(clash), Map.of(), "plan", MODEL.toString());
        assertEquals(2, result.status(), result.out());
        assertTrue(result.err().contains("Placer example.clash.Clash is named 'tflite', the name of a built-in planner: "
                + "give it another"), result.err());
    }
}
