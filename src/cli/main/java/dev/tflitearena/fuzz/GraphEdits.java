package dev.tflitearena.fuzz;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;

/** Structural edits of a graph that keep it well formed: every tensor reference still names a tensor. */
final class GraphEdits {
    private GraphEdits() {
    }

    /** The subgraph with tensor i renumbered to {@code to[i]}; {@code to} is a permutation. */
    static Subgraph renumbered(Subgraph s, int[] to) {
        Tensor[] tensors = new Tensor[to.length];
        for (Tensor t : s.tensors()) {
            tensors[to[t.index()]] = new Tensor(to[t.index()], t.name(), t.bytes(), t.allocation(), t.variable(),
                    t.type(), t.shape());
        }
        return mapped(s, Arrays.asList(tensors), t -> to[t]);
    }

    /** The graph with subgraph {@code index} replaced. */
    static Graph withSubgraph(Graph g, int index, Subgraph replacement) {
        List<Subgraph> subgraphs = new ArrayList<>(g.subgraphs());
        subgraphs.set(index, replacement);
        return new Graph(g.options(), subgraphs);
    }

    /** The graph without subgraphs {@code from..to-1}; the others are renumbered in order. */
    static Graph withoutSubgraphs(Graph g, int from, int to) {
        List<Subgraph> subgraphs = new ArrayList<>();
        for (int i = 0; i < g.subgraphs().size(); i++) {
            if (i < from || i >= to) {
                Subgraph s = g.subgraphs().get(i);
                subgraphs.add(new Subgraph(subgraphs.size(), s.name(), s.tensors(), s.nodes(), s.inputs(),
                        s.outputs(), s.variables()));
            }
        }
        return new Graph(g.options(), subgraphs);
    }

    static Subgraph withoutNodes(Subgraph s, int from, int to) {
        List<Node> nodes = new ArrayList<>(s.nodes());
        nodes.subList(from, to).clear();
        return new Subgraph(s.index(), s.name(), s.tensors(), nodes, s.inputs(), s.outputs(), s.variables());
    }

    static Subgraph withNode(Subgraph s, int index, Node node) {
        List<Node> nodes = new ArrayList<>(s.nodes());
        nodes.set(index, node);
        return new Subgraph(s.index(), s.name(), s.tensors(), nodes, s.inputs(), s.outputs(), s.variables());
    }

    static Subgraph withTensor(Subgraph s, Tensor tensor) {
        List<Tensor> tensors = new ArrayList<>(s.tensors());
        tensors.set(tensor.index(), tensor);
        return new Subgraph(s.index(), s.name(), tensors, s.nodes(), s.inputs(), s.outputs(), s.variables());
    }

    static Subgraph withLists(Subgraph s, int[] inputs, int[] outputs, int[] variables) {
        return new Subgraph(s.index(), s.name(), s.tensors(), s.nodes(), inputs, outputs, variables);
    }

    /**
     * The subgraph without tensors {@code from..to-1}: every reference to them is dropped from the lists
     * that held it, and the tensors after them move down.
     */
    static Subgraph withoutTensors(Subgraph s, int from, int to) {
        int removed = to - from;
        List<Tensor> tensors = new ArrayList<>();
        for (Tensor t : s.tensors()) {
            if (t.index() < from) {
                tensors.add(t);
            } else if (t.index() >= to) {
                tensors.add(new Tensor(t.index() - removed, t.name(), t.bytes(), t.allocation(), t.variable(),
                        t.type(), t.shape()));
            }
        }
        return mapped(s, tensors, t -> t < from ? t : t >= to ? t - removed : Integer.MIN_VALUE);
    }

    /** The list without its entry at {@code position}. */
    static int[] without(int[] list, int position) {
        int[] shorter = new int[list.length - 1];
        System.arraycopy(list, 0, shorter, 0, position);
        System.arraycopy(list, position + 1, shorter, position, shorter.length - position);
        return shorter;
    }

    /** Applies {@code map} to every reference; -1 stays -1 and references mapped to MIN_VALUE are dropped. */
    private static Subgraph mapped(Subgraph s, List<Tensor> tensors, IntUnaryOperator map) {
        List<Node> nodes = new ArrayList<>();
        for (Node n : s.nodes()) {
            nodes.add(new Node(n.op(), map(n.inputs(), map), map(n.outputs(), map), map(n.temporaries(), map),
                    map(n.intermediates(), map), n.inplace()));
        }
        return new Subgraph(s.index(), s.name(), tensors, nodes, map(s.inputs(), map), map(s.outputs(), map),
                map(s.variables(), map));
    }

    private static int[] map(int[] list, IntUnaryOperator map) {
        return Arrays.stream(list).map(t -> t < 0 ? t : map.applyAsInt(t)).filter(t -> t != Integer.MIN_VALUE)
                .toArray();
    }
}
