package dev.tflitearena.bridge.sharing;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The persistent tensors an interpreter owns, each with why it is not in the shared region: the kernel keeps
 * per-session state in it, the sharing rules leave it out (a dynamic graph, a subgraph control flow lends
 * memory to, a control-flow operand), sharing is off, or nothing the project knows explains it. Read from a graph prepared by TFLite,
 * where the kernels have marked their tensors persistent.
 */
public final class PersistentTensors {
    public enum Kind {
        /** The kernel writes it on every invoke or keeps it across invokes: it belongs to one session. */
        STATE,
        /** Derived from constants, but where the sharing rules do not reach. */
        NOT_SHARED,
        /** Derived from constants, shared when sessions share. */
        SHAREABLE,
        /** No rule of the project's explains it. */
        UNEXPLAINED
    }

    public record Owned(int subgraph, int tensor, String name, long bytes, Kind kind, String why) {
    }

    private PersistentTensors() {
    }

    /**
     * @param graph   a graph TFLite has prepared
     * @param shared  the region the interpreter shares, or null when it shares nothing
     * @param sharing whether the interpreter's sessions share: without it, a constant-derived tensor is shareable
     */
    public static List<Owned> of(Graph graph, SharedConstants shared, boolean sharing) {
        List<Owned> owned = new ArrayList<>();
        for (int s = 0; s < graph.subgraphs().size(); s++) {
            int index = s;
            Set<Integer> inRegion = shared == null ? Set.of() : shared.entries(s).stream()
                    .map(SharedConstants.Entry::tensor).collect(Collectors.toSet());
            Map<Integer, String> unproved = shared == null ? Map.of() : shared.unproved().stream()
                    .filter(u -> u.subgraph() == index)
                    .collect(Collectors.toMap(SharedConstants.Unproved::tensor, SharedConstants.Unproved::rule));
            Map<Integer, String> candidates = ConstantDerived.candidates(graph, s);
            String whyNot = ConstantDerived.whyNotShared(graph, s);
            Subgraph subgraph = graph.subgraphs().get(s);
            Map<Integer, String> state = stateTensors(subgraph);
            Set<Integer> controlFlow = ConstantDerived.controlFlowTensors(subgraph);
            Map<Integer, String> producers = producers(subgraph);
            for (Tensor t : subgraph.tensors()) {
                if (t.allocation() != Allocation.ARENA_RW_PERSISTENT || t.bytes() == 0 || inRegion.contains(t.index())) {
                    continue;
                }
                Kind kind;
                String why;
                if (state.containsKey(t.index())) {
                    kind = Kind.STATE;
                    why = state.get(t.index());
                } else if (unproved.containsKey(t.index())) {
                    kind = Kind.STATE;
                    why = unproved.get(t.index()) + ", but two interpreters on different inputs wrote other bytes";
                } else if (candidates.containsKey(t.index()) && whyNot != null) {
                    kind = Kind.NOT_SHARED;
                    why = candidates.get(t.index()) + ", but " + whyNot;
                } else if (candidates.containsKey(t.index())) {
                    kind = sharing ? Kind.UNEXPLAINED : Kind.SHAREABLE;
                    why = candidates.get(t.index()) + (sharing ? ", yet not in the region" : ", sessions share it"
                            + " unless told not to");
                } else if (controlFlow.contains(t.index())) {
                    kind = Kind.NOT_SHARED;
                    why = "an operand of a control-flow node, copied to and from the subgraphs it calls";
                } else {
                    kind = Kind.UNEXPLAINED;
                    why = "made persistent by " + producers.getOrDefault(t.index(), "no node")
                            + ", which no rule names";
                }
                owned.add(new Owned(s, t.index(), t.name(), t.bytes(), kind, why));
            }
        }
        return owned;
    }

    /** The tensors kernels keep per-session state in, by the kernels that mark them persistent. */
    private static Map<Integer, String> stateTensors(Subgraph subgraph) {
        Map<Integer, String> state = new HashMap<>();
        for (Tensor t : subgraph.tensors()) {
            if (t.variable()) {
                state.put(t.index(), "a variable tensor: the state an op keeps across invokes");
            }
        }
        for (Node node : subgraph.nodes()) {
            switch (node.op()) {
                case "VAR_HANDLE" -> put(state, node.outputs(), "VAR_HANDLE's resource id");
                case "NUMERIC_VERIFY" -> put(state, node.outputs(), "NUMERIC_VERIFY's output, written on every invoke");
                // lstm.cc's basic kernel (5 inputs) keeps its previous activation and state in its inputs 1 and 4.
                case "LSTM" -> {
                    if (node.inputs().length == 5) {
                        put(state, new int[]{node.inputs()[1], node.inputs()[4]}, "the basic LSTM kernel's state input");
                    }
                }
                default -> {
                }
            }
        }
        return state;
    }

    private static void put(Map<Integer, String> state, int[] tensors, String why) {
        for (int t : tensors) {
            if (t >= 0) {
                state.putIfAbsent(t, why);
            }
        }
    }

    private static Map<Integer, String> producers(Subgraph subgraph) {
        Map<Integer, String> producers = new HashMap<>();
        for (Node node : subgraph.nodes()) {
            for (int t : node.outputs()) {
                producers.putIfAbsent(t, node.op() + " (output)");
            }
            for (int t : node.temporaries()) {
                producers.putIfAbsent(t, node.op() + " (temporary)");
            }
        }
        return producers;
    }
}
