package dev.tflitearena.bridge;

import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an interpreter's own structures hold on malloc's heap, summed over its subgraphs, block by block as
 * malloc_usable_size counts them (native/heap_census.cc): the part of a session's heap that can be named
 * structure by structure. The rest of what the interpreter mallocs (op data, the planner's bookkeeping,
 * thread pools, kernels' own buffers) has no pointer the project can follow and is measured by phase instead.
 */
public final class HeapCensus {
    /** The categories, in native/heap_census.cc's order, by the names memory's JSON gives them. */
    private static final String[] CATEGORIES = {"tensor_array", "tensor_shapes", "quantization", "sparsity",
            "dynamic_tensor_data", "node_array", "node_lists", "builtin_data"};
    private static final int SPARSITY = 3;

    private HeapCensus() {
    }

    /** Bytes per category, in a fixed order; needs the native layer. */
    public static Map<String, Long> of(NativeInterpreter interpreter) {
        Interpreter live = interpreter.live();
        long[] sums = new long[CATEGORIES.length];
        for (int s = 0; s < live.subgraphs_size(); s++) {
            Subgraph subgraph = live.subgraph(s);
            int nodeCount = (int) subgraph.nodes_size();
            long nodes = nodeCount == 0 ? 0 : subgraph.node_and_registration(0).address();
            long[] bytes = NativeLayer.heapCensus(subgraph.context().address(), nodes, nodeCount);
            for (int c = 0; c < sums.length; c++) {
                sums[c] += bytes[c];
            }
        }
        // What the interpreter reaches but shares is not its own.
        sums[SPARSITY] -= interpreter.sharedSparsityBytes();
        Map<String, Long> census = new LinkedHashMap<>();
        for (int c = 0; c < sums.length; c++) {
            census.put(CATEGORIES[c], sums[c]);
        }
        return census;
    }
}
