package dev.tflitearena.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarks' jar as the command line's bench starts it: usage and bad input, before JMH runs. */
class BenchCommandTest {
    private record Result(int status, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = BenchCommand.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(status, out.toString(), err.toString());
    }

    @Test
    void helpIsTheBenchCommandsOwn() {
        Result r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: tflite-arena bench") && r.out().contains("--throughput"), r.out());
    }

    @Test
    void aMissingModelOrAnUnknownPlannerIsAnErrorNamingIt() {
        Result model = run("--models", "nope.tflite");
        assertEquals(BenchCommand.EXIT_ERROR, model.status());
        assertTrue(model.err().startsWith("tflite-arena bench: tests/models/nope.tflite: no such model file"),
                model.err());
        Result planner = run("--planners", "magic");
        assertEquals(BenchCommand.EXIT_ERROR, planner.status());
        assertTrue(planner.err().contains("unknown planner 'magic'"), planner.err());
    }

    @Test
    void anOutputDirectoryThatCannotBeMadeIsRefusedBeforeTheWork(@TempDir Path temp) throws IOException {
        Path file = Files.writeString(temp.resolve("file.txt"), "");
        String inFile = file.resolve("x").toString();
        Result r = run("--out", inFile);
        assertEquals(BenchCommand.EXIT_ERROR, r.status());
        assertTrue(r.err().startsWith("tflite-arena bench: cannot write " + inFile + ": " + file + " is not a directory"),
                r.err());
    }
}
