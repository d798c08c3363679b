package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FuzzModelsCommandTest {
    @Test
    void aShortRunCountsEveryMutantOnBothPaths(@TempDir Path out) throws Exception {
        Cli.Result r = Cli.run("fuzz-models", "--mutants", "30", "--native", "5", "--seed", "2",
                "--out", out.toString(), "--json");
        assertTrue(r.status() == 0 || r.status() == CompareCommand.EXIT_DIFFERENT, r.err());
        JsonNode json = r.json();
        assertEquals(30, json.path("mutants").asInt());
        int inProcess = 0;
        int isolated = 0;
        for (String outcome : new String[]{"ok", "refused", "failed", "crashed", "timed_out", "out_of_memory"}) {
            inProcess += json.path("in_process").path(outcome).asInt();
            isolated += json.path("isolated").path(outcome).asInt();
        }
        assertEquals(30, inProcess);
        assertEquals(5, isolated);
        assertEquals(0, json.path("in_process").path("failed").asInt());
    }
}
