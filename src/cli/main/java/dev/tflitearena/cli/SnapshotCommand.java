package dev.tflitearena.cli;

import dev.tflitearena.cli.options.GraphSource;
import dev.tflitearena.cli.options.NativeOptions;
import dev.tflitearena.cli.options.ResultFileOption;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = "Prepares a model in the native interpreter and writes its graph (tensors, temporaries, "
                + "nodes in execution order, in-place flags) as graph JSON.")
final class SnapshotCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Mixin
    ResultFileOption out;

    @Mixin
    NativeOptions nativeOptions;

    @Override
    public Integer call() throws Exception {
        out.check();
        Graph graph = GraphSource.read(model, nativeOptions.settings());
        out.write(GraphJson.toJson(graph));
        return 0;
    }
}
