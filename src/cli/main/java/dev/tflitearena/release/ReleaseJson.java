package dev.tflitearena.release;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;

/** The JSON of the files release engineers keep: snake_case fields, absent values left out, indented. */
public final class ReleaseJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private ReleaseJson() {
    }

    public static String write(Object value) throws IOException {
        return MAPPER.writeValueAsString(value) + "\n";
    }

    /**
     * Reads a file of one of these formats; {@code format} is what its "format" field must say, so that a file
     * of another kind is refused by name rather than read as empty.
     */
    public static <T> T read(Path file, Class<T> type, String format) throws IOException {
        String found;
        try {
            found = MAPPER.readTree(file.toFile()).path("format").asText(null);
        } catch (IOException e) {
            throw new IOException(file + ": not JSON (" + e.getMessage() + ")", e);
        }
        if (!format.equals(found)) {
            throw new IOException(file + ": not a " + format + " file (format '" + found + "')");
        }
        return MAPPER.readValue(file.toFile(), type);
    }

    /** The "format" field of a JSON file, or null when it has none. */
    public static String format(Path file) throws IOException {
        return MAPPER.readTree(file.toFile()).path("format").asText(null);
    }
}
