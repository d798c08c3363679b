package dev.tflitearena.session;

import java.util.ArrayList;
import java.util.List;

/**
 * The time of each node a session's last run invoked ({@link Session#lastRunProfile()}), in the order they began:
 * the primary subgraph's nodes in its execution plan's order, and around a control-flow node (WHILE, IF,
 * CALL_ONCE) the nodes of the subgraphs it ran, whose time is part of its own. A delegate's node is one node,
 * where TFLite reports it at all: 2.20 reports none for a graph XNNPACK took whole, so such a profile holds only
 * the nodes left to TFLite's kernels. {@code dropped} counts the invocations past the profiler's room
 * ({@link Session#PROFILE_CAPACITY}), left out.
 */
public record RunProfile(List<Node> nodes, long dropped) {
    /** One invocation: the node's index in its subgraph, its op's name and its nanoseconds of wall time. */
    public record Node(int subgraph, int node, String op, long nanos) {
    }

    public RunProfile {
        nodes = List.copyOf(nodes);
    }

    /** The nanoseconds of the subgraph's nodes summed: the primary subgraph's (0) are the run's time in ops. */
    public long nanos(int subgraph) {
        return nodes.stream().filter(n -> n.subgraph() == subgraph).mapToLong(Node::nanos).sum();
    }

    /** Decodes what {@link dev.tflitearena.nativelayer.OpProfiler#events()} gives. */
    public static RunProfile of(Object[] events) {
        long[] numbers = (long[]) events[0];
        String[] ops = (String[]) events[1];
        List<Node> nodes = new ArrayList<>(ops.length);
        for (int i = 0; i < ops.length; i++) {
            nodes.add(new Node((int) numbers[3 * i + 1], (int) numbers[3 * i], ops[i], numbers[3 * i + 2]));
        }
        return new RunProfile(nodes, numbers[numbers.length - 1]);
    }
}
