package dev.tflitearena.fuzz;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Makes a failing graph as small as it can while it keeps failing: drops subgraphs, nodes and tensors (in
 * halving chunks first, as delta debugging does, then one by one), then node list entries, in-place flags
 * and graph list entries, then simplifies tensors (zero or halved bytes, rw instead of persistent, not a
 * variable) and turns preserve_all_tensors off. Every pass is repeated until none makes progress. The
 * predicate must be false, not throw, for a graph that fails differently or not at all.
 */
public final class GraphShrinker {
    private final Predicate<Graph> fails;
    private final int maxTries;
    private int tries;
    private Graph current;

    private GraphShrinker(Graph failing, Predicate<Graph> fails, int maxTries) {
        this.current = failing;
        this.fails = fails;
        this.maxTries = maxTries;
    }

    /** The smallest graph found that still fails, trying at most {@code maxTries} candidates. */
    public static Graph shrink(Graph failing, Predicate<Graph> fails, int maxTries) {
        GraphShrinker shrinker = new GraphShrinker(failing, fails, maxTries);
        Graph before;
        do {
            before = shrinker.current;
            shrinker.pass();
        } while (shrinker.current != before && shrinker.tries < maxTries);
        return shrinker.current;
    }

    private void pass() {
        removeChunks(g -> g.subgraphs().size(), GraphEdits::withoutSubgraphs);
        for (int s = 0; s < current.subgraphs().size(); s++) {
            int at = s;
            removeChunks(g -> g.subgraphs().get(at).nodes().size(),
                    (g, from, to) -> GraphEdits.withSubgraph(g, at,
                            GraphEdits.withoutNodes(g.subgraphs().get(at), from, to)));
            removeChunks(g -> g.subgraphs().get(at).tensors().size(),
                    (g, from, to) -> GraphEdits.withSubgraph(g, at,
                            GraphEdits.withoutTensors(g.subgraphs().get(at), from, to)));
            simplifyNodes(s);
            simplifyLists(s);
            simplifyTensors(s);
        }
        if (current.options().preserveAllTensors()) {
            attempt(new Graph(new Graph.Options(current.options().tensorAlignment(), false), current.subgraphs()));
        }
    }

    private interface RangeRemoval {
        Graph apply(Graph g, int from, int to);
    }

    /** Removes ranges of items, halving the range length from all of them down to one. */
    private void removeChunks(Function<Graph, Integer> count, RangeRemoval removal) {
        for (int size = count.apply(current); size >= 1; size /= 2) {
            int from = 0;
            while (from < count.apply(current)) {
                int to = Math.min(from + size, count.apply(current));
                if (!attempt(removal.apply(current, from, to))) {
                    from = to;
                }
            }
        }
    }

    private void simplifyNodes(int s) {
        for (int n = 0; n < subgraph(s).nodes().size(); n++) {
            for (int field = 0; field < 4; field++) {
                int entry = 0;
                while (entry < list(subgraph(s).nodes().get(n), field).length) {
                    Node node = subgraph(s).nodes().get(n);
                    if (!attempt(s, GraphEdits.withNode(subgraph(s), n, withoutEntry(node, field, entry)))) {
                        entry++;
                    }
                }
            }
            for (int bit = 1; bit <= subgraph(s).nodes().get(n).inplace(); bit <<= 1) {
                Node node = subgraph(s).nodes().get(n);
                if ((node.inplace() & bit) != 0) {
                    attempt(s, GraphEdits.withNode(subgraph(s), n, new Node(node.op(), node.inputs(), node.outputs(),
                            node.temporaries(), node.intermediates(), node.inplace() & ~bit)));
                }
            }
        }
    }

    /** A node list by number: inputs, outputs, temporaries, intermediates. */
    private static int[] list(Node node, int field) {
        return switch (field) {
            case 0 -> node.inputs();
            case 1 -> node.outputs();
            case 2 -> node.temporaries();
            default -> node.intermediates();
        };
    }

    private static Node withoutEntry(Node n, int field, int entry) {
        return new Node(n.op(),
                field == 0 ? GraphEdits.without(n.inputs(), entry) : n.inputs(),
                field == 1 ? GraphEdits.without(n.outputs(), entry) : n.outputs(),
                field == 2 ? GraphEdits.without(n.temporaries(), entry) : n.temporaries(),
                field == 3 ? GraphEdits.without(n.intermediates(), entry) : n.intermediates(), n.inplace());
    }

    private void simplifyLists(int s) {
        for (int field = 0; field < 3; field++) {
            int entry = 0;
            while (entry < graphList(subgraph(s), field).length) {
                Subgraph g = subgraph(s);
                int[] shorter = GraphEdits.without(graphList(g, field), entry);
                Subgraph candidate = GraphEdits.withLists(g, field == 0 ? shorter : g.inputs(),
                        field == 1 ? shorter : g.outputs(), field == 2 ? shorter : g.variables());
                if (!attempt(s, candidate)) {
                    entry++;
                }
            }
        }
    }

    private static int[] graphList(Subgraph s, int field) {
        return field == 0 ? s.inputs() : field == 1 ? s.outputs() : s.variables();
    }

    private void simplifyTensors(int s) {
        for (int t = 0; t < subgraph(s).tensors().size(); t++) {
            Tensor tensor = subgraph(s).tensor(t);
            long bytes = tensor.bytes();
            if (bytes > 0 && !attempt(s, GraphEdits.withTensor(subgraph(s), resized(tensor, 0)))) {
                while (bytes > 1 && attempt(s, GraphEdits.withTensor(subgraph(s), resized(tensor, bytes / 2)))) {
                    bytes /= 2;
                }
            }
            tensor = subgraph(s).tensor(t);
            if (tensor.variable()) {
                attempt(s, GraphEdits.withTensor(subgraph(s), new Tensor(t, tensor.name(), tensor.bytes(),
                        tensor.allocation(), false, tensor.type(), tensor.shape())));
            }
            tensor = subgraph(s).tensor(t);
            if (tensor.allocation() == Allocation.ARENA_RW_PERSISTENT) {
                attempt(s, GraphEdits.withTensor(subgraph(s), new Tensor(t, tensor.name(), tensor.bytes(),
                        Allocation.ARENA_RW, tensor.variable(), tensor.type(), tensor.shape())));
            }
        }
    }

    /** The tensor with other bytes, its UINT8 shape following. */
    private static Tensor resized(Tensor t, long bytes) {
        return new Tensor(t.index(), t.name(), bytes, t.allocation(), t.variable(), "UINT8", new int[]{(int) bytes});
    }

    private Subgraph subgraph(int s) {
        return current.subgraphs().get(s);
    }

    private boolean attempt(int s, Subgraph candidate) {
        return attempt(GraphEdits.withSubgraph(current, s, candidate));
    }

    /** Keeps the candidate if it still fails; false once the budget of tries is spent. */
    private boolean attempt(Graph candidate) {
        if (tries >= maxTries) {
            return false;
        }
        tries++;
        if (fails.test(candidate)) {
            current = candidate;
            return true;
        }
        return false;
    }
}
