package dev.tflitearena.graph;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The project's graph interchange format, {@value #FORMAT} version {@value #VERSION}. Reading validates
 * everything a planner relies on and names the subgraph, node and tensor of the first problem found.
 */
public final class GraphJson {
    public static final String FORMAT = "tflite-arena-graph";
    public static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private GraphJson() {
    }

    public static Graph read(Path file) throws IOException {
        try {
            return parse(Files.readString(file));
        } catch (InvalidGraphException e) {
            throw new InvalidGraphException(file + ": " + e.getMessage());
        }
    }

    public static Graph parse(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidGraphException("not valid JSON: " + e.getOriginalMessage()
                    + " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
        }
        if (root == null || !root.isObject()) {
            throw new InvalidGraphException("expected a JSON object at the top level");
        }
        String format = root.path("format").asText(FORMAT);
        if (!FORMAT.equals(format)) {
            throw new InvalidGraphException("format is '" + format + "', expected '" + FORMAT + "'");
        }
        int version = root.path("version").asInt(VERSION);
        if (version != VERSION) {
            throw new InvalidGraphException("version " + version + " is not supported; this reader reads version "
                    + VERSION);
        }
        Graph.Options options = readOptions(root.path("options"));
        JsonNode subgraphsNode = root.path("subgraphs");
        if (!subgraphsNode.isArray() || subgraphsNode.isEmpty()) {
            throw new InvalidGraphException("'subgraphs' must be a non-empty array");
        }
        Subgraph[] subgraphs = new Subgraph[subgraphsNode.size()];
        for (int position = 0; position < subgraphsNode.size(); position++) {
            JsonNode s = subgraphsNode.get(position);
            int index = s.path("index").asInt(position);
            String where = "subgraph " + index;
            if (index < 0 || index >= subgraphs.length) {
                throw new InvalidGraphException(where + ": index out of range 0.." + (subgraphs.length - 1));
            }
            if (subgraphs[index] != null) {
                throw new InvalidGraphException(where + ": duplicate subgraph index");
            }
            subgraphs[index] = readSubgraph(s, index);
        }
        return new Graph(options, List.of(subgraphs));
    }

    private static Graph.Options readOptions(JsonNode o) {
        if (o.isMissingNode()) {
            return Graph.Options.DEFAULT;
        }
        int alignment = (int) integer(o, "tensor_alignment", Graph.Options.DEFAULT_TENSOR_ALIGNMENT, "options");
        try {
            JsonNode release = o.path("tflite_release");
            return new Graph.Options(alignment, o.path("preserve_all_tensors").asBoolean(false),
                    release.isMissingNode() ? TfliteRelease.NEWEST : TfliteRelease.of(release.asText()),
                    o.path("release_inputs").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw new InvalidGraphException("options: " + e.getMessage());
        }
    }

    private static Subgraph readSubgraph(JsonNode s, int index) {
        String where = "subgraph " + index;
        JsonNode tensorsNode = array(s, "tensors", where);
        Tensor[] tensors = new Tensor[tensorsNode.size()];
        for (int position = 0; position < tensors.length; position++) {
            JsonNode t = tensorsNode.get(position);
            long tensorIndex = integer(t, "index", position, where + ", tensors[" + position + "]");
            String at = where + ", tensor " + tensorIndex;
            if (tensorIndex < 0 || tensorIndex >= tensors.length) {
                throw new InvalidGraphException(at + ": index out of range 0.." + (tensors.length - 1)
                        + " (tensor indices must be 0..n-1 without gaps)");
            }
            if (tensors[(int) tensorIndex] != null) {
                throw new InvalidGraphException(at + ": duplicate tensor index");
            }
            tensors[(int) tensorIndex] = readTensor(t, (int) tensorIndex, at);
        }
        int count = tensors.length;
        JsonNode nodesNode = array(s, "nodes", where);
        List<Node> nodes = new ArrayList<>(nodesNode.size());
        for (int i = 0; i < nodesNode.size(); i++) {
            JsonNode n = nodesNode.get(i);
            String op = n.path("op").asText("");
            String at = where + ", node " + i + (op.isEmpty() ? "" : " (" + op + ")");
            int inplace = (int) integer(n, "inplace", 0, at);
            if (inplace < 0 || inplace > 0xFF) {
                throw new InvalidGraphException(at + ": inplace flags " + inplace + " out of range 0..255");
            }
            nodes.add(new Node(op,
                    indices(n, "inputs", count, true, at),
                    indices(n, "outputs", count, true, at),
                    indices(n, "temporaries", count, false, at),
                    indices(n, "intermediates", count, true, at),
                    inplace));
        }
        return new Subgraph(index, s.path("name").asText(""), List.of(tensors), nodes,
                indices(s, "inputs", count, true, where),
                indices(s, "outputs", count, true, where),
                indices(s, "variables", count, false, where));
    }

    private static Tensor readTensor(JsonNode t, int index, String at) {
        long bytes = integer(t, "bytes", -1, at);
        if (bytes < 0) {
            throw new InvalidGraphException(at + ": 'bytes' must be a non-negative integer");
        }
        JsonNode allocationNode = t.get("allocation");
        if (allocationNode == null || !allocationNode.isTextual()) {
            throw new InvalidGraphException(at + ": 'allocation' is missing");
        }
        Allocation allocation;
        try {
            allocation = Allocation.fromJsonName(allocationNode.asText());
        } catch (IllegalArgumentException e) {
            throw new InvalidGraphException(at + ": " + e.getMessage());
        }
        String type = t.path("type").asText(null);
        int[] shape = t.has("shape") ? indices(t, "shape", Integer.MAX_VALUE, false, at) : null;
        checkBytesMatchShape(at, bytes, allocation, type, shape);
        return new Tensor(index, t.path("name").asText(""), bytes, allocation, t.path("variable").asBoolean(false),
                type, shape);
    }

    /** A file whose arena tensor claims other bytes than its own shape and type need would plan wrongly. */
    private static void checkBytesMatchShape(String at, long bytes, Allocation allocation, String type, int[] shape) {
        TensorType tensorType = type == null ? null : TensorType.byName(type);
        if (!allocation.isArena() || tensorType == null || shape == null) {
            return;
        }
        long expected;
        try {
            expected = tensorType.bytesFor(shape);
        } catch (ArithmeticException e) {
            throw new InvalidGraphException(at + ": shape is too large");
        }
        if (expected >= 0 && expected != bytes) {
            throw new InvalidGraphException(at + ": 'bytes' is " + bytes + " but a " + type + " tensor of shape "
                    + java.util.Arrays.toString(shape) + " needs " + expected);
        }
    }

    private static JsonNode array(JsonNode parent, String field, String at) {
        JsonNode a = parent.get(field);
        if (a == null || !a.isArray()) {
            throw new InvalidGraphException(at + ": '" + field + "' must be an array");
        }
        return a;
    }

    private static long integer(JsonNode parent, String field, long fallback, String at) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new InvalidGraphException(at + ": '" + field + "' must be an integer, got " + v);
        }
        return v.asLong();
    }

    /** Reads an array of tensor indices below {@code count}; -1 (absent optional tensor) only where allowed. */
    private static int[] indices(JsonNode parent, String field, int count, boolean optionalAllowed, String at) {
        JsonNode a = parent.get(field);
        if (a == null || a.isNull()) {
            return new int[0];
        }
        if (!a.isArray()) {
            throw new InvalidGraphException(at + ": '" + field + "' must be an array");
        }
        int[] result = new int[a.size()];
        for (int i = 0; i < result.length; i++) {
            JsonNode v = a.get(i);
            if (!v.isInt()) {
                throw new InvalidGraphException(at + ": " + field + "[" + i + "] must be an integer, got " + v);
            }
            int value = v.asInt();
            boolean absent = value == -1 && optionalAllowed;
            if (!absent && (value < 0 || value >= count)) {
                throw new InvalidGraphException(at + ": " + field + "[" + i + "] is " + value
                        + (count == Integer.MAX_VALUE ? ", must not be negative"
                        : ", which refers to no tensor (the subgraph has " + count + ")"));
            }
            result[i] = value;
        }
        return result;
    }

    public static void write(Graph graph, Path file) throws IOException {
        Files.writeString(file, toJson(graph));
    }

    public static String toJson(Graph graph) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        ObjectNode options = root.putObject("options");
        options.put("tensor_alignment", graph.options().tensorAlignment());
        options.put("preserve_all_tensors", graph.options().preserveAllTensors());
        options.put("tflite_release", graph.options().release().version());
        if (graph.options().releaseInputs()) {
            // Written only when on, so that graphs planned under TFLite's rules keep their JSON.
            options.put("release_inputs", true);
        }
        ArrayNode subgraphs = root.putArray("subgraphs");
        for (Subgraph s : graph.subgraphs()) {
            ObjectNode sj = subgraphs.addObject();
            sj.put("index", s.index());
            sj.put("name", s.name());
            putInts(sj, "inputs", s.inputs());
            putInts(sj, "outputs", s.outputs());
            putInts(sj, "variables", s.variables());
            ArrayNode tensors = sj.putArray("tensors");
            for (Tensor t : s.tensors()) {
                ObjectNode tj = tensors.addObject();
                tj.put("index", t.index());
                tj.put("name", t.name());
                tj.put("bytes", t.bytes());
                tj.put("allocation", t.allocation().jsonName());
                tj.put("variable", t.variable());
                if (t.type() != null) {
                    tj.put("type", t.type());
                }
                if (t.shape() != null) {
                    putInts(tj, "shape", t.shape());
                }
            }
            ArrayNode nodes = sj.putArray("nodes");
            for (Node n : s.nodes()) {
                ObjectNode nj = nodes.addObject();
                nj.put("op", n.op());
                putInts(nj, "inputs", n.inputs());
                putInts(nj, "outputs", n.outputs());
                putInts(nj, "temporaries", n.temporaries());
                putInts(nj, "intermediates", n.intermediates());
                nj.put("inplace", n.inplace());
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void putInts(ObjectNode parent, String field, int[] values) {
        ArrayNode a = parent.putArray(field);
        for (int v : values) {
            a.add(v);
        }
    }
}
