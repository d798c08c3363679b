package dev.tflitearena.cli;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads a graph from the project's graph JSON, or from a model through the native interpreter. A release
 * the settings ask for replaces the one the JSON names.
 */
final class GraphSource {
    private GraphSource() {
    }

    static Graph read(Path file, InterpreterSettings settings) throws IOException {
        if (file.getFileName().toString().endsWith(".json")) {
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
