package dev.tflitearena.cli.options;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.OrderedProbe;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.plan.order.MemoryOrder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads a graph from the project's graph JSON, or from a model through the native interpreter. A release
 * the settings ask for replaces the one the JSON names.
 */
public final class GraphSource {
    /** What an input file holds, told by its extension alone: a file is never read as what it may not be. */
    public enum Kind {
        MODEL(".tflite", "a TFLite model"),
        GRAPH_JSON(".json", "graph JSON"),
        BUFFER_CSV(".csv", "a MiniMalloc buffer set");

        private final String extension;
        private final String what;

        Kind(String extension, String what) {
            this.extension = extension;
            this.what = what;
        }

        /** The kind of the file among those the command reads; refuses another, naming the accepted ones. */
        public static Kind of(Path file, Kind... accepted) {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            return Arrays.stream(accepted).filter(k -> name.endsWith(k.extension)).findFirst().orElseThrow(() -> {
                List<String> kinds = Arrays.stream(accepted).map(k -> k.extension + " (" + k.what + ")").toList();
                return new IllegalArgumentException(file + ": the extension says what a file is, and this command "
                        + "reads " + String.join(", ", kinds.subList(0, kinds.size() - 1))
                        + (kinds.size() > 1 ? " or " : "") + kinds.get(kinds.size() - 1));
            });
        }
    }

    private GraphSource() {
    }

    /**
     * The graph {@link #read} gave, in the memory order: for a model, as an interpreter prepared in that order
     * numbers its tensors (see {@link OrderedProbe}).
     */
    static Graph inOrder(Path file, InterpreterSettings settings, MemoryOrder.Result order) {
        if (Kind.of(file, Kind.MODEL, Kind.GRAPH_JSON) == Kind.GRAPH_JSON) {
            return order.graph();
        }
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            return OrderedProbe.snapshot(interpreter, order);
        }
    }

    public static Graph read(Path file, InterpreterSettings settings) throws IOException {
        if (Kind.of(file, Kind.MODEL, Kind.GRAPH_JSON) == Kind.GRAPH_JSON) {
            Graph graph = GraphJson.read(file);
            return settings.release() == null ? graph : graph.withRelease(settings.release());
        }
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            interpreter.allocateTensors();
            return interpreter.snapshot();
        }
    }
}
