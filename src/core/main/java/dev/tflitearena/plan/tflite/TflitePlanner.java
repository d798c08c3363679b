package dev.tflitearena.plan.tflite;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;

/**
 * TFLite's own CPU planner, ArenaPlanner over two SimpleMemoryArenas: offsets equal the native ones, tensor
 * by tensor, under the rules of the release the graph's options name (2.12 to 2.20 differ only in which
 * outputs share memory, see {@link Lifetimes}). Ties in the allocation order are broken as the native
 * library, built with GCC, breaks them: candidates come from per-node hash sets and are ordered by
 * libstdc++'s introsort.
 *
 * <p>A static graph is planned in one {@code ExecuteAllocations(0, last node)}. TFLite plans a graph with
 * dynamic-shape ops in pieces: up to and including the first node with a dynamic output when tensors are
 * allocated, and each following piece during the first invoke, once the node before it has run. The plan
 * here is that state after the first invoke, when every node has been planned.
 *
 * <p>A piece also ends at a RESHAPE whose new shape an earlier op computes ({@link #stopsPreparing}). Its
 * output is no dynamic tensor while it is prepared: it is planned in the arena with its input's size, and
 * turns dynamic when the node runs, unless it shares its input's memory. TFLite then keeps its bytes in the
 * arena's list while it lives, so the pieces after it are planned around them.
 */
public final class TflitePlanner implements Planner {
    public static final String NAME = "tflite";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        ArenaPlanner planner = new ArenaPlanner(subgraph, options);
        int first = 0;
        int last = subgraph.nodes().size() - 1;
        if (last < 0) {
            // TFLite still runs ExecuteAllocations(0, 0) on an empty subgraph: its inputs and variables get placed.
            planner.executeAllocations(0, 0);
            return planner.result();
        }
        TfliteRelease release = options.release();
        for (int index = 0; index <= last; index++) {
            Node node = subgraph.nodes().get(index);
            boolean shapeNotKnown = stopsPreparing(subgraph, node, release);
            if (hasDynamicOutput(subgraph, node) || shapeNotKnown || index == last) {
                int turnsDynamic = shapeNotKnown ? node.outputs()[0] : -1;
                if (turnsDynamic >= 0 && subgraph.tensor(turnsDynamic).allocation() == Allocation.DYNAMIC) {
                    // reshape.cc's prepare gives an arena output its input's size, for the planner to share.
                    planner.setAllocation(turnsDynamic, Allocation.ARENA_RW, subgraph.tensor(node.inputs()[0]).bytes());
                    planner.executeAllocations(first, index);
                    planner.setAllocation(turnsDynamic, Allocation.DYNAMIC, subgraph.tensor(turnsDynamic).bytes());
                } else {
                    planner.executeAllocations(first, index);
                }
                first = index + 1;
            }
        }
        return planner.result();
    }

    /**
     * True when TFLite plans part of the graph only while it runs: a node has an output it can only size then,
     * or a RESHAPE cannot size its output while it is prepared ({@link #stopsPreparing}).
     */
    public static boolean isDynamic(Graph graph) {
        return graph.subgraphs().stream().anyMatch(s -> s.nodes().stream().anyMatch(n -> hasDynamicOutput(s, n)
                || stopsPreparing(s, n, graph.options().release())));
    }

    /** Whether a RESHAPE of the graph cannot size its output while it is prepared ({@link #stopsPreparing}). */
    public static boolean hasComputedShapeReshape(Graph graph) {
        return graph.subgraphs().stream().anyMatch(s -> s.nodes().stream()
                .anyMatch(n -> stopsPreparing(s, n, graph.options().release())));
    }

    /**
     * A node with a dynamic output stops TFLite's preparing (Subgraph::PrepareOpsStartingAt). VAR_HANDLE's
     * does not: TFLite makes every RESOURCE tensor dynamic when it builds the interpreter, and VAR_HANDLE's
     * prepare makes its output persistent, so it is still dynamic only in a subgraph not prepared yet, such as
     * CALL_ONCE's init subgraph before the first invoke.
     */
    public static boolean hasDynamicOutput(Subgraph subgraph, Node node) {
        if ("VAR_HANDLE".equals(node.op())) {
            return false;
        }
        for (int t : node.outputs()) {
            if (t >= 0 && subgraph.tensor(t).allocation() == Allocation.DYNAMIC) {
                return true;
            }
        }
        return false;
    }

    /**
     * A RESHAPE whose shape tensor is neither constant nor persistent, on a release whose RESHAPE then returns
     * kTfLiteOutputShapeNotKnown from its prepare (kernels/reshape.cc): TFLite stops preparing after it, though
     * no tensor is dynamic. String outputs are sized when the node runs, whatever the shape.
     */
    static boolean stopsPreparing(Subgraph subgraph, Node node, TfliteRelease release) {
        if (!release.reshapeShapeNotKnown() || !"RESHAPE".equals(node.op()) || node.inputs().length != 2
                || node.inputs()[1] < 0 || node.outputs().length != 1 || node.outputs()[0] < 0) {
            return false;
        }
        Allocation shape = subgraph.tensor(node.inputs()[1]).allocation();
        return shape != Allocation.MMAP_RO && shape != Allocation.PERSISTENT_RO
                && !"STRING".equals(subgraph.tensor(node.outputs()[0]).type());
    }
}
