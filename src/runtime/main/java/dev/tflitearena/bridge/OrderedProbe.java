package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.order.MemoryOrder;

/**
 * The graph as an interpreter prepared in a memory order has it, which a plan for interpreters run in that
 * order must be made from: kernels add their temporaries when they are first prepared (CONV_2D's im2col, for
 * one), so the temporaries' tensor indices follow the order the nodes are prepared in.
 */
public final class OrderedProbe {
    private OrderedProbe() {
    }

    /**
     * Sets {@code order} on a fresh interpreter, allocates natively and takes the snapshot, under the lifetime
     * rules the order was chosen under (graph inputs released or not).
     */
    public static Graph snapshot(NativeInterpreter fresh, MemoryOrder.Result order) {
        fresh.setNodeOrder(order.order());
        fresh.allocateTensors();
        Graph graph = fresh.snapshot().withReleaseInputs(order.graph().options().releaseInputs());
        long bound = LowerBound.of(graph.subgraphs().get(0), graph.options());
        if (bound != order.boundAfter()) {
            // The same nodes with the same tensors, only numbered otherwise: the bound cannot differ.
            throw new NativeException(fresh.model().path() + ": prepared in the memory order, the primary subgraph's"
                    + " lower bound is " + bound + " bytes, not the " + order.boundAfter() + " the order was chosen for");
        }
        return graph;
    }
}
