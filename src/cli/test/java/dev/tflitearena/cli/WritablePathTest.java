package dev.tflitearena.cli;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A path a command cannot write fails before the work, saying why. */
class WritablePathTest {
    private static final String MODEL = TestModels.named("face_detection_short_range.tflite").toString();

    @TempDir
    Path temp;

    private Path graph() throws IOException {
        return Files.writeString(temp.resolve("graph.json"), """
                {"subgraphs": [{"tensors": [{"index": 0, "bytes": 4, "allocation": "arena_rw"}], "nodes": []}]}""");
    }

    private static void assertRefused(String message, String... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(Main.EXIT_ERROR, r.status(), r.out());
        assertTrue(r.err().contains(message), String.join(" ", args) + ": " + r.err());
    }

    @Test
    void aFileInAMissingDirectoryNamesTheDirectory() throws IOException {
        Path svg = temp.resolve("nope").resolve("x.svg");
        assertRefused("tflite-arena plan: cannot write " + svg + ": no such directory " + svg.getParent(),
                "plan", graph().toString(), "--svg", svg.toString());
    }

    @Test
    void aFileWhereTheSystemRefusesItSaysPermissionDenied() throws IOException {
        // sysfs refuses new files to everyone, root included.
        assertRefused("cannot write /sys/x.svg: permission denied", "plan", graph().toString(), "--svg", "/sys/x.svg");
    }

    @Test
    void aFileThatIsADirectoryIsRefused() throws IOException {
        assertRefused("cannot write " + temp + ": it is a directory", "plan", graph().toString(), "--svg",
                temp.toString());
    }

    @Test
    void everyCommandThatWritesChecksItsPathsBeforeTheWork() throws IOException {
        Path file = Files.writeString(temp.resolve("file.txt"), "");
        String inFile = file.resolve("x").toString();
        String notADirectory = ": " + file + " is not a directory";
        String graph = graph().toString();
        List<List<String>> writers = List.of(
                List.of("plan", graph, "--svg", inFile),
                List.of("inspect", MODEL, "--csv", inFile),
                List.of("snapshot", graph, "-o", inFile),
                List.of("release-report", "--out", inFile),
                List.of("demo", "--out", inFile),
                List.of("report", graph, "--out", inFile),
                List.of("releases", "--out", inFile),
                List.of("fuzz-planner", "--graphs", "1", "--out", inFile),
                List.of("fuzz-models", "--mutants", "1", "--out", inFile),
                List.of("run", MODEL, "--dump-intermediates", inFile));
        for (List<String> writer : writers) {
            assertRefused("tflite-arena " + writer.get(0) + ": cannot write " + inFile + notADirectory,
                    writer.toArray(String[]::new));
        }
    }

    @Test
    void aDirectoryToCreateIsCreatedWithItsParents() throws IOException {
        Path out = temp.resolve("a").resolve("b");
        Cli.Result r = Cli.run("report", graph().toString(), "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.isRegularFile(out.resolve("report.html")));
    }
}
