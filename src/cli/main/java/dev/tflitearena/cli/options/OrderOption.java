package dev.tflitearena.cli.options;

import dev.tflitearena.plan.order.Order;
import picocli.CommandLine.Option;

/** Which order the primary subgraph's ops run in, for the commands that plan or run a graph. */
public final class OrderOption {
    @Option(names = "--order", defaultValue = "model", paramLabel = "model|memory", description = "The order the "
            + "primary subgraph's ops run in: the model's own, or 'memory': a topological order that lowers the rw "
            + "arena's lower bound, found by an exact search over the sets of ops already run where they are few, "
            + "else the best of least-peak-first, breadth-first, depth-first and the model's order. Ops that touch "
            + "state (variables, control flow, custom ops) keep their relative order; other subgraphs are left "
            + "alone (default: ${DEFAULT-VALUE}).")
    String order;

    public Order value() {
        return Order.byName(order);
    }
}
