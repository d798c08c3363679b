package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.memory.MemoryProfile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryCommandTest {
    private static final List<String> STAGES = List.of("before loading", "after loading", "after allocating",
            "after 1 invoke", "after " + MemoryProfile.INVOKES + " invokes");

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        int status = new CommandLine(new MemoryCommand()).setOut(new PrintWriter(out)).execute(args);
        assertEquals(0, status, out.toString());
        return out.toString();
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
            // Allocating the tensors takes native memory: the arena at least.
            assertTrue(samples.get(2).get("heap_in_use_bytes").asLong() + samples.get(2).get("heap_mapped_bytes").asLong()
                    > samples.get(1).get("heap_in_use_bytes").asLong() + samples.get(1).get("heap_mapped_bytes").asLong());
        }
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
}
