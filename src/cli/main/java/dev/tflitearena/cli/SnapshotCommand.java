package dev.tflitearena.cli;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = "Prepares a model in the native interpreter and writes its graph (tensors, temporaries, "
                + "nodes in execution order, in-place flags) as graph JSON.")
final class SnapshotCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = {"-o", "--output"}, paramLabel = "GRAPH.json",
            description = "Write to this file instead of standard output.")
    Path output;

    @Mixin
    NativeOptions nativeOptions;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (output != null) {
            WritablePath.checkFile(output);
        }
        Graph graph = GraphSource.read(model, nativeOptions.settings());
        if (output == null) {
            spec.commandLine().getOut().print(GraphJson.toJson(graph));
            spec.commandLine().getOut().flush();
        } else {
            WritablePath.write(output, GraphJson.toJson(graph));
        }
        return 0;
    }
}
