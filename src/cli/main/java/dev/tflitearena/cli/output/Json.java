package dev.tflitearena.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The commands' {@code --json} output. */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Puts an offset, or null for "no memory". */
    public static void putOffset(ObjectNode node, String field, long offset) {
        if (offset < 0) {
            node.putNull(field);
        } else {
            node.put(field, offset);
        }
    }

    public static void putInts(ObjectNode node, String field, int[] values) {
        ArrayNode array = node.putArray(field);
        for (int v : values) {
            array.add(v);
        }
    }

    public static String print(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
