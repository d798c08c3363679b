package dev.tflitearena.bridge;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The persistent tensors whose bytes a kernel computes from the model's constants alone, by a rule read in
 * TFLite's source (the same in 2.12, 2.15, 2.18, 2.19 and 2.20). Only these are candidates for sharing
 * between interpreters of one model; {@link SharedConstants} still compares their bytes across two
 * interpreters before it shares one. Every other persistent tensor stays private.
 *
 * <ul>
 * <li>{@value #DEQUANTIZE}: {@code kernels/dequantize.cc} makes the output of a constant input
 * (kTfLiteMmapRo) persistent in Prepare, dequantizes it on the first Eval and then skips Eval for good
 * ({@code float_dequantized_weights_initialized}, kept per node).</li>
 * <li>{@value #CONV_HWCN}: {@code kernels/conv.cc}, on the multithreaded (Eigen) kernel of x86 builds without
 * ruy, with more than one thread, a float input and filter, no dilation and a filter that is not an rw arena
 * tensor, adds a persistent temporary, {@code hwcn_weights}, which the first Eval fills with the filter
 * transposed and later Evals only read ({@code have_weights_been_transposed}). A float CONV_2D has no other
 * persistent temporary (the hybrid kernel's {@code row_sums} needs an int8 filter), so its persistent
 * temporary is that one; it derives from constants when its filter is a constant or a DEQUANTIZE output
 * above.</li>
 * </ul>
 *
 * Only the main subgraph shares, and not the tensors a control-flow node reads or writes, which the kernel
 * copies to and from the subgraphs it calls; a graph with dynamic-shape ops shares nothing, since TFLite
 * prepares part of it during invoke, after the handover.
 */
public final class ConstantDerived {
    public static final String DEQUANTIZE = "DEQUANTIZE of a constant";
    public static final String CONV_HWCN = "CONV_2D hwcn_weights";
    private static final Set<String> CONTROL_FLOW_OPS = Set.of("WHILE", "IF", "CALL_ONCE", "STABLEHLO_WHILE",
            "STABLEHLO_CASE");

    private ConstantDerived() {
    }

    /** The candidates of the prepared graph's main subgraph, tensor index to the rule that names it. */
    public static Map<Integer, String> candidates(Graph graph) {
        Map<Integer, String> found = new TreeMap<>();
        if (TflitePlanner.isDynamic(graph)) {
            return found;
        }
        Subgraph main = graph.subgraphs().get(0);
        Set<Integer> controlFlow = controlFlowTensors(main);
        for (Node node : main.nodes()) {
            if (node.op().equals("DEQUANTIZE") && node.inputs().length == 1 && node.outputs().length == 1
                    && is(main, node.inputs()[0], Allocation.MMAP_RO)
                    && is(main, node.outputs()[0], Allocation.ARENA_RW_PERSISTENT)) {
                found.put(node.outputs()[0], DEQUANTIZE);
            }
        }
        for (Node node : main.nodes()) {
            if (!node.op().equals("CONV_2D") || node.inputs().length < 2 || !isFloat32(main, node.inputs()[0])
                    || !isFloat32(main, node.inputs()[1])) {
                continue;
            }
            int filter = node.inputs()[1];
            if (!is(main, filter, Allocation.MMAP_RO) && !DEQUANTIZE.equals(found.get(filter))) {
                continue;
            }
            for (int temporary : node.temporaries()) {
                if (is(main, temporary, Allocation.ARENA_RW_PERSISTENT)) {
                    found.put(temporary, CONV_HWCN);
                }
            }
        }
        found.keySet().removeAll(controlFlow);
        return found;
    }

    private static Set<Integer> controlFlowTensors(Subgraph subgraph) {
        Set<Integer> tensors = new HashSet<>();
        for (Node node : subgraph.nodes()) {
            if (CONTROL_FLOW_OPS.contains(node.op())) {
                Arrays.stream(node.inputs()).forEach(tensors::add);
                Arrays.stream(node.outputs()).forEach(tensors::add);
            }
        }
        return tensors;
    }

    private static boolean is(Subgraph subgraph, int tensor, Allocation allocation) {
        return tensor >= 0 && subgraph.tensor(tensor).allocation() == allocation;
    }

    private static boolean isFloat32(Subgraph subgraph, int tensor) {
        if (tensor < 0) {
            return false;
        }
        Tensor t = subgraph.tensor(tensor);
        return "FLOAT32".equals(t.type());
    }
}
