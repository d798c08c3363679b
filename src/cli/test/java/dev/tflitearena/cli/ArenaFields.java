package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks that a JSON output names its arena figures in the documented vocabulary: exactly the expected fields,
 * each of them listed in the reference's JSON output ({@code docs/reference/json.md}).
 */
final class ArenaFields {
    /** A byte figure that speaks of an arena, a persistent arena or a total of them. */
    private static final Pattern ARENA_FIGURE = Pattern.compile(".*(arena|persistent|total).*bytes.*");

    private ArenaFields() {
    }

    static void assertNamed(JsonNode json, String... expected) throws IOException {
        Set<String> found = new TreeSet<>();
        collect(json, found);
        assertEquals(new TreeSet<>(Set.of(expected)), found, "arena figures of " + json);
        String reference = Files.readString(Path.of("docs/reference/json.md"));
        for (String field : found) {
            assertTrue(reference.contains("`" + field + "`"), field + " is not in docs/reference/json.md");
        }
    }

    private static void collect(JsonNode node, Set<String> found) {
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isNumber() && ARENA_FIGURE.matcher(e.getKey()).matches()) {
                found.add(e.getKey());
            }
            collect(e.getValue(), found);
        });
        if (node.isArray()) {
            node.forEach(element -> collect(element, found));
        }
    }
}
