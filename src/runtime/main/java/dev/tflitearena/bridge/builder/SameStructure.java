package dev.tflitearena.bridge.builder;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.Arrays;

/**
 * Whether two graphs are the same to a planner: tensor alignment and preserve_all_tensors, graph lists, every
 * tensor's bytes, allocation and variable flag, every node's tensor lists and in-place flags. Names, types,
 * shapes and the TFLite release whose rules apply are not compared.
 */
final class SameStructure {
    private SameStructure() {
    }

    /** The first difference found, or null when the graphs are the same to a planner. */
    static String firstDifference(Graph expected, Graph actual) {
        Graph.Options e = expected.options();
        Graph.Options a = actual.options();
        if (e.tensorAlignment() != a.tensorAlignment() || e.preserveAllTensors() != a.preserveAllTensors()) {
            return "options " + e + " against " + a;
        }
        if (expected.subgraphs().size() != actual.subgraphs().size()) {
            return expected.subgraphs().size() + " subgraphs against " + actual.subgraphs().size();
        }
        for (int s = 0; s < expected.subgraphs().size(); s++) {
            String difference = firstDifference(expected.subgraphs().get(s), actual.subgraphs().get(s));
            if (difference != null) {
                return "subgraph " + s + ": " + difference;
            }
        }
        return null;
    }

    private static String firstDifference(Subgraph expected, Subgraph actual) {
        String lists = differentList("inputs", expected.inputs(), actual.inputs());
        lists = lists != null ? lists : differentList("outputs", expected.outputs(), actual.outputs());
        lists = lists != null ? lists : differentList("variables", expected.variables(), actual.variables());
        if (lists != null) {
            return lists;
        }
        if (expected.tensors().size() != actual.tensors().size()) {
            return expected.tensors().size() + " tensors against " + actual.tensors().size();
        }
        for (int t = 0; t < expected.tensors().size(); t++) {
            Tensor e = expected.tensor(t);
            Tensor a = actual.tensor(t);
            if (e.bytes() != a.bytes() || e.allocation() != a.allocation() || e.variable() != a.variable()) {
                return "tensor " + t + " is " + describe(e) + " against " + describe(a);
            }
        }
        if (expected.nodes().size() != actual.nodes().size()) {
            return expected.nodes().size() + " nodes against " + actual.nodes().size();
        }
        for (int n = 0; n < expected.nodes().size(); n++) {
            Node e = expected.nodes().get(n);
            Node a = actual.nodes().get(n);
            String difference = differentList("inputs", e.inputs(), a.inputs());
            difference = difference != null ? difference : differentList("outputs", e.outputs(), a.outputs());
            difference = difference != null ? difference
                    : differentList("temporaries", e.temporaries(), a.temporaries());
            difference = difference != null ? difference
                    : differentList("intermediates", e.intermediates(), a.intermediates());
            if (difference == null && e.inplace() != a.inplace()) {
                difference = "in-place flags " + e.inplace() + " against " + a.inplace();
            }
            if (difference != null) {
                return "node " + n + ": " + difference;
            }
        }
        return null;
    }

    private static String differentList(String what, int[] expected, int[] actual) {
        return Arrays.equals(expected, actual) ? null
                : what + " " + Arrays.toString(expected) + " against " + Arrays.toString(actual);
    }

    private static String describe(Tensor t) {
        return t.bytes() + " bytes " + t.allocation().jsonName() + (t.variable() ? " variable" : "");
    }
}
