package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code compare} says of subgraphs TFLite plans inside an invoke, or never. */
class CompareSubgraphsTest {
    @TempDir
    Path dir;

    @Test
    void saysWhyASubgraphHasNoNativePlan() throws Exception {
        Path model = Files.write(dir.resolve("unreachable.tflite"), SampleModels.unreachableSubgraph());
        Cli.Result text = Cli.run("compare", model.toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().contains("subgraph 1 (decode)\nno native plan to compare: TFLite never planned it, "
                + "even in an invoke"), text.out());
        assertTrue(text.out().contains("identical (1 subgraph without a native plan, not compared)"), text.out());

        JsonNode json = Cli.run("compare", model.toString(), "--json").json();
        assertTrue(json.get("identical").asBoolean());
        JsonNode unreachable = json.get("subgraphs").get(1);
        assertFalse(unreachable.get("compared").asBoolean());
        assertEquals("TFLite never planned it, even in an invoke", unreachable.get("not_compared_because").asText());
        assertEquals(0, unreachable.get("tensors").size());
    }

    @Test
    void readsCallOnceInitSubgraphInsideTheInvoke() throws Exception {
        Path model = Files.write(dir.resolve("resource_variables.tflite"), SampleModels.resourceVariables());
        JsonNode json = Cli.run("compare", model.toString(), "--json").json();
        assertTrue(json.get("identical").asBoolean(), json::toString);
        assertEquals(1, json.get("invokes_before_compare").asInt());
        assertEquals("subgraph 1 was not planned when tensors were allocated", json.get("invoked_because").asText());
        JsonNode init = json.get("subgraphs").get(1);
        assertTrue(init.get("compared").asBoolean());
        assertEquals(3, init.get("tensors_compared").asInt());
        assertEquals(68, init.get("native_persistent_bytes").asInt());
    }
}
