package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.GraphOptions;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.SubgraphOption;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.place.MinimallocProblem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "export-buffers", mixinStandardHelpOptions = true,
        description = "Writes the rw arena of a subgraph as a placement problem for an outside planner: a .csv in "
                + "MiniMalloc's format (" + MinimallocProblem.HEADER + "; the id is the tensor's index in the "
                + "subgraph, [lower, upper) the nodes it is live at, the size rounded up to the tensor alignment, "
                + "in-place aliases left to their root), or a .json with the same buffers and their tensor names "
                + "and bytes, the alignment and the lower bound; the extension of FILE says which. Its solution "
                + "comes back through --plan. 'plan --export-buffers FILE' is the same.")
final class ExportBuffersCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "GRAPH.json|MODEL.tflite")
    Path input;

    @Parameters(index = "1", paramLabel = "FILE.csv|FILE.json")
    Path file;

    @Mixin
    SubgraphOption subgraph;

    @Mixin
    GraphOptions graph;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        export(input, file, subgraph.index(), () -> graph.read(input).graph(), output);
        return 0;
    }

    /** Reads the graph only once the file is known to be writable. */
    interface GraphReader {
        Graph read() throws IOException;
    }

    static void export(Path input, Path file, int subgraph, GraphReader reader, Output output) throws IOException {
        String extension = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean csv = extension.endsWith(".csv");
        if (!csv && !extension.endsWith(".json")) {
            throw new IllegalArgumentException(file + ": the extension says the format, .csv (MiniMalloc's) or .json");
        }
        WritablePath.checkFile(file);
        Graph graph = reader.read();
        if (subgraph < 0 || subgraph >= graph.subgraphs().size()) {
            throw new IllegalArgumentException("--subgraph " + subgraph + ": " + input + " has subgraphs 0.."
                    + (graph.subgraphs().size() - 1));
        }
        MinimallocProblem problem = MinimallocProblem.of(graph.subgraphs().get(subgraph), graph.options());
        WritablePath.write(file, csv ? String.join("\n", problem.csvLines()) + "\n"
                : Json.print(toJson(input, problem)) + "\n");
        output.print(() -> {
            ObjectNode root = Json.object();
            root.put("input", input.toString());
            root.put("subgraph", subgraph);
            root.put("buffers", problem.rows().size());
            root.put("alignment", problem.alignment());
            root.put("lower_bound_bytes", problem.lowerBound());
            root.put("file", file.toString());
            return root;
        }, out -> out.printf("%s, subgraph %d: %d buffers, alignment %d, lower bound %d bytes, written to %s%n", input,
                subgraph, problem.rows().size(), problem.alignment(), problem.lowerBound(), file));
    }

    private static ObjectNode toJson(Path input, MinimallocProblem problem) {
        ObjectNode root = Json.object();
        root.put("input", input.toString());
        root.put("subgraph", problem.subgraph().index());
        root.put("alignment", problem.alignment());
        root.put("lower_bound_bytes", problem.lowerBound());
        ArrayNode buffers = root.putArray("buffers");
        for (MinimallocProblem.Row r : problem.rows()) {
            ObjectNode b = buffers.addObject();
            b.put("id", r.id());
            b.put("lower", r.lower());
            b.put("upper", r.upper());
            b.put("size", r.size());
            b.put("bytes", r.bytes());
            b.put("name", problem.subgraph().tensor(r.id()).name());
        }
        return root;
    }
}
