package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.TestModels;
import dev.tflitearena.cli.output.ProgressDisplay;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressDisplayTest {
    private static String show(ProgressDisplay.Mode mode) {
        StringWriter err = new StringWriter();
        try (ProgressDisplay progress = new ProgressDisplay(new PrintWriter(err), "memory", mode)) {
            progress.advance(0, 4, "native plan: loading");
            progress.advance(1, 4, "native plan: allocating");
            progress.advance(2, 4, "native plan: allocating");
            progress.step("shrinking");
        }
        return err.toString();
    }

    @Test
    void offATerminalALinePerStepWithTheCountAndTheTime() {
        List<String> lines = show(ProgressDisplay.Mode.LINES).lines().toList();
        // The second report of "allocating" moves only the count: no line of its own within LINE_EVERY.
        assertEquals(List.of("memory 0:00 0/4 native plan: loading", "memory 0:00 1/4 native plan: allocating",
                "memory 0:00 shrinking"), lines);
    }

    @Test
    void onATerminalOneLineRedrawnWithABarThenErased() {
        String shown = show(ProgressDisplay.Mode.BAR);
        assertFalse(shown.contains("\n"), shown);
        assertTrue(shown.startsWith("\rmemory 0:00 [--------------------] 0/4 native plan: loading\u001b[K"), shown);
        assertTrue(shown.contains("\rmemory 0:00 [##########----------] 2/4 native plan: allocating\u001b[K")
                || shown.contains("\rmemory 0:00 [#####---------------] 1/4 native plan: allocating\u001b[K"), shown);
        assertTrue(shown.contains("\rmemory 0:00 shrinking\u001b[K"), shown);
        assertTrue(shown.endsWith("\r\u001b[K"), shown);
    }

    @Test
    void quietShowsNothing() {
        assertEquals("", show(ProgressDisplay.Mode.OFF));
    }

    @Test
    void aCommandsProgressGoesToStandardErrorAndItsJsonStaysClean() throws Exception {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        Cli.Result shown = Cli.run("compare-planners", model, "--time-limit", "0.1", "--json");
        assertEquals(0, shown.status(), shown.err());
        JsonNode json = shown.json();
        assertEquals(json.get("planners").size(), Pattern.compile("^compare-planners \\d+:\\d\\d \\d+/\\d+ planner ",
                Pattern.MULTILINE).matcher(shown.err()).results().count(), shown.err());
        assertTrue(shown.err().contains("the native plan"), shown.err());
        assertFalse(shown.out().contains("compare-planners "), shown.out());

        Cli.Result quiet = Cli.run("compare-planners", model, "--time-limit", "0.1", "--json", "--quiet");
        assertEquals(0, quiet.status(), quiet.err());
        assertEquals("", quiet.err());
        assertEquals(json.get("planners").size(), quiet.json().get("planners").size());
    }
}
