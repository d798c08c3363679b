package dev.tflitearena.release;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** The JSON of the files release engineers keep: snake_case fields, absent values left out, indented. */
public final class ReleaseJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private ReleaseJson() {
    }

    public static String write(Object value) throws IOException {
        return MAPPER.writeValueAsString(value) + "\n";
    }

    /**
     * Reads a file of one of these formats, {@code version} of it; {@code format} is what its "format" field
     * must say, so that a file of another kind is refused by name rather than read as empty. What cannot be read
     * (not JSON, cut short, a field of the wrong type, a number given as null) is refused in one line naming the
     * file, the field and what is wrong.
     */
    public static <T> T read(Path file, Class<T> type, String format, int version) throws IOException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": not JSON: " + oneLine(e));
        }
        if (tree == null || tree.isMissingNode()) {
            throw new IOException(file + ": empty, not a " + format + " file");
        }
        String found = tree.path("format").asText(null);
        if (!format.equals(found)) {
            throw new IOException(file + ": not a " + format + " file (format '" + found + "')");
        }
        int foundVersion = tree.path("version").asInt(-1);
        if (foundVersion != version) {
            throw new IOException(file + ": " + format + " version " + tree.path("version") + "; this release "
                    + "reads version " + version + " (make the file again with this release)");
        }
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": " + oneLine(e));
        }
    }

    /** Jackson's message in one line: the field's path, what is wrong, where, without its internals. */
    private static String oneLine(JsonProcessingException e) {
        String path = e instanceof JsonMappingException m ? m.getPath().stream()
                .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "") : "";
        String message = e.getOriginalMessage().lines().findFirst().orElse("").replaceAll(" \\(set [^)]*\\)", "");
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : " (line " + at.getLineNr() + ", column "
                + at.getColumnNr() + ")";
        return (path.isEmpty() ? "" : "field " + path + ": ") + message + where;
    }

    /** The "format" field of a JSON file, or null when it has none. */
    public static String format(Path file) throws IOException {
        return MAPPER.readTree(file.toFile()).path("format").asText(null);
    }
}
