package dev.tflitearena.cli.options;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.nio.file.Path;

/** How a model or graph JSON becomes the graph a command plans: the interpreter it is read through, and the rules. */
public final class GraphOptions {
    @Mixin
    public OrderOption order;

    @Mixin
    public NativeOptions nativeOptions;

    @Mixin
    public ReleaseInputsOption releaseInputs;

    public OrderedGraph read(Path input) throws IOException {
        Graph read = releaseInputs.apply(GraphSource.read(input, nativeOptions.settings()));
        if (order.value() != Order.MEMORY) {
            return new OrderedGraph(read, null);
        }
        MemoryOrder.Result ordered = MemoryOrder.of(read);
        // The order was chosen on the graph under the rule, and its graph keeps the rule.
        return new OrderedGraph(GraphSource.inOrder(input, nativeOptions.settings(), ordered), ordered);
    }
}
