package dev.tflitearena.bridge.sharing;

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
import java.util.stream.IntStream;

/**
 * The persistent tensors whose bytes a kernel computes from the model's constants alone, by the rules read in
 * TFLite's builtin kernels (the same in the stored sources of 2.12, 2.15, 2.18, 2.19 and 2.20). Only these
 * are candidates for sharing between interpreters of one model; {@link SharedConstants} still compares their
 * bytes across two interpreters before it shares one. Every other persistent tensor stays private.
 *
 * <p>A rule names a node's persistent output or persistent temporaries and the inputs they are computed from;
 * the tensor qualifies when every one of those inputs is fixed: a constant (kTfLiteMmapRo) or itself a
 * candidate. The nodes are visited in execution order, so chains qualify end to end: a DENSIFY output feeding
 * a CONV_2D's filter gives that CONV_2D's {@code hwcn_weights}. Each kernel fills such a tensor on its first
 * Eval, or in the hybrid kernels' {@code row_sums} only with asymmetric input quantization, and never after
 * (a per-node flag: {@code float_dequantized_weights_initialized}, {@code dense_weights_initialized},
 * {@code have_weights_been_transposed}, {@code compute_row_sums}, {@code ledger_initialized},
 * {@code rhs_transposed}, {@code float_weights_time_initialized}, {@code cached_output}); one the kernel
 * never writes, it never reads either.
 *
 * <p>The rules leave out the tensors a control-flow node reads or writes, which the kernel copies to and from
 * the subgraphs it calls. Whether a subgraph's candidates may be shared at all is {@link #whyNotShared}'s.
 */
public final class ConstantDerived {
    public static final String DEQUANTIZE = "DEQUANTIZE of a constant";
    public static final String DENSIFY = "DENSIFY of a sparse constant";
    public static final String CAST = "CAST of a constant (cached output)";
    public static final String CONV_HWCN = "CONV_2D hwcn_weights";
    public static final String CONV_ROW_SUMS = "CONV_2D row_sums";
    public static final String FC_ROW_SUMS = "FULLY_CONNECTED row_sums";
    public static final String FC_LEDGER = "FULLY_CONNECTED ledger";
    public static final String BMM_RHS = "BATCH_MATMUL transposed rhs";
    public static final String BMM_ROW_SUMS = "BATCH_MATMUL row_sums";
    public static final String SVDF_WEIGHTS_TIME = "SVDF float_weights_time";
    public static final String SVDF_ROW_SUMS = "SVDF row_sums";

    private static final Set<String> CONTROL_FLOW_OPS = Set.of("WHILE", "IF", "CALL_ONCE", "STABLEHLO_WHILE",
            "STABLEHLO_CASE");
    /** Recurrent hybrid kernels: their row sums and ledgers are sums and indices of their quantized weights. */
    private static final Set<String> RECURRENT_HYBRID_OPS = Set.of("RNN", "UNIDIRECTIONAL_SEQUENCE_RNN",
            "BIDIRECTIONAL_SEQUENCE_RNN", "LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM");
    private static final Set<String> QUANTIZED_WEIGHT_TYPES = Set.of("INT8", "UINT8", "INT4");

    private ConstantDerived() {
    }

    /**
     * Why the subgraph's candidates cannot be shared, or null when they can: in a graph with dynamic-shape ops
     * TFLite prepares part of it during invoke, after the handover; a subgraph whose inputs its caller lends
     * (a WHILE body, an IF branch: kTfLiteCustom without a registered allocation) fails TFLite's check of custom
     * allocations once it has one (VerifyCustomAllocationForTensor in core/subgraph.cc), and without a Java
     * plan there is no memory of the caller's to register for those inputs before the caller is allocated.
     */
    public static String whyNotShared(Graph graph, int index) {
        if (TflitePlanner.isDynamic(graph)) {
            return "the graph has dynamic-shape ops, and TFLite prepares part of it during invoke";
        }
        Subgraph subgraph = graph.subgraphs().get(index);
        for (int input : subgraph.inputs()) {
            if (input >= 0 && subgraph.tensor(input).allocation() == Allocation.CUSTOM) {
                return "in subgraph " + index + " (" + subgraph.name() + "), whose inputs control flow lends its"
                        + " caller's memory: TFLite then checks every custom allocation the subgraph has";
            }
        }
        return null;
    }

    /** The tensors of one subgraph of the prepared graph the rules name, tensor index to the rule. */
    public static Map<Integer, String> candidates(Graph graph, int index) {
        Map<Integer, String> found = new TreeMap<>();
        Subgraph subgraph = graph.subgraphs().get(index);
        for (Node node : subgraph.nodes()) {
            switch (node.op()) {
                case "DEQUANTIZE" -> output(subgraph, node, DEQUANTIZE, found);
                case "DENSIFY" -> output(subgraph, node, DENSIFY, found);
                case "CAST" -> output(subgraph, node, CAST, found);
                case "CONV_2D", "FULLY_CONNECTED", "BATCH_MATMUL" -> temporaries(subgraph, node, new int[]{1}, found);
                case "SVDF" -> temporaries(subgraph, node, new int[]{1, 2}, found);
                default -> {
                    if (RECURRENT_HYBRID_OPS.contains(node.op())) {
                        temporaries(subgraph, node, quantizedInputs(subgraph, node), found);
                    }
                }
            }
        }
        found.keySet().removeAll(controlFlowTensors(subgraph));
        return found;
    }

    /** The one persistent output of a one-input node whose input is fixed. */
    private static void output(Subgraph subgraph, Node node, String rule, Map<Integer, String> found) {
        if (node.inputs().length == 1 && node.outputs().length == 1 && fixed(subgraph, node.inputs()[0], found)
                && is(subgraph, node.outputs()[0], Allocation.ARENA_RW_PERSISTENT)) {
            found.put(node.outputs()[0], rule);
        }
    }

    /** Every persistent temporary of a node whose {@code sources} inputs are all present and fixed. */
    private static void temporaries(Subgraph subgraph, Node node, int[] sources, Map<Integer, String> found) {
        if (sources.length == 0) {
            return;
        }
        for (int source : sources) {
            if (source >= node.inputs().length || !fixed(subgraph, node.inputs()[source], found)) {
                return;
            }
        }
        int[] temporaries = node.temporaries();
        for (int position = 0; position < temporaries.length; position++) {
            int temporary = temporaries[position];
            if (is(subgraph, temporary, Allocation.ARENA_RW_PERSISTENT)) {
                found.put(temporary, temporaryRule(node.op(), position, subgraph.tensor(temporary).type()));
            }
        }
    }

    /** What the kernel keeps in its persistent temporary at {@code position}, as its source names it. */
    private static String temporaryRule(String op, int position, String type) {
        return switch (op) {
            case "CONV_2D" -> "INT32".equals(type) ? CONV_ROW_SUMS : CONV_HWCN;
            case "FULLY_CONNECTED" -> "UINT8".equals(type) ? FC_LEDGER : FC_ROW_SUMS;
            case "BATCH_MATMUL" -> position == 1 ? BMM_RHS : BMM_ROW_SUMS;
            case "SVDF" -> position == 3 ? SVDF_WEIGHTS_TIME : SVDF_ROW_SUMS;
            default -> op + ("UINT8".equals(type) ? " ledger" : " row_sums");
        };
    }

    /** The positions of the node's inputs of a quantized type: in a hybrid kernel, its weights. */
    private static int[] quantizedInputs(Subgraph subgraph, Node node) {
        int[] inputs = node.inputs();
        return IntStream.range(0, inputs.length)
                .filter(p -> inputs[p] >= 0 && QUANTIZED_WEIGHT_TYPES.contains(subgraph.tensor(inputs[p]).type()))
                .toArray();
    }

    private static boolean fixed(Subgraph subgraph, int tensor, Map<Integer, String> found) {
        return is(subgraph, tensor, Allocation.MMAP_RO) || found.containsKey(tensor);
    }

    static Set<Integer> controlFlowTensors(Subgraph subgraph) {
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
        if (tensor < 0) {
            return false;
        }
        Tensor t = subgraph.tensor(tensor);
        return t.allocation() == allocation;
    }
}
