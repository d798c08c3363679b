package dev.tflitearena.plan.place;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link TflmGreedyPlacer} on a graph whose model carries an offline plan: per subgraph, an offset by tensor
 * index, -1 where TFLM plans the tensor online. As in TFLM, an offset given to a constant or empty tensor is
 * ignored (TFLM plans neither, but for an empty variable, which it lists at its offset: TFLite keeps variables
 * persistent, and that case is not modelled); one given to a tensor that has no rw memory of its own under
 * TFLite (a persistent variable, an in-place alias) cannot be kept, and is refused.
 */
public final class TflmGreedyPlanner implements Planner {
    private final List<int[]> offlineOffsets;

    public TflmGreedyPlanner(List<int[]> offlineOffsets) {
        this.offlineOffsets = List.copyOf(offlineOffsets);
    }

    @Override
    public String name() {
        return TflmGreedyPlacer.NAME;
    }

    @Override
    public Plan plan(Graph graph) {
        if (graph.subgraphs().size() != offlineOffsets.size()) {
            throw new InvalidPlanException("the offline plan covers " + offlineOffsets.size()
                    + " subgraphs, the graph has " + graph.subgraphs().size());
        }
        return Planner.super.plan(graph);
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        int[] offsets = offlineOffsets.get(subgraph.index());
        if (offsets.length > subgraph.tensors().size()) {
            throw new InvalidPlanException("subgraph " + subgraph.index() + ": the offline plan has " + offsets.length
                    + " offsets for " + subgraph.tensors().size() + " tensors");
        }
        Map<Integer, Long> placed = new HashMap<>();
        BufferSet buffers = BufferSet.of(subgraph, options);
        for (BufferSet.Buffer b : buffers.buffers()) {
            if (b.id() < offsets.length && offsets[b.id()] >= 0) {
                placed.put(b.id(), (long) offsets[b.id()]);
            }
        }
        for (int t = 0; t < offsets.length; t++) {
            Tensor tensor = subgraph.tensor(t);
            if (offsets[t] >= 0 && !placed.containsKey(t) && tensor.allocation() != Allocation.MMAP_RO
                    && tensor.bytes() > 0) {
                throw new InvalidPlanException("subgraph " + subgraph.index() + ", tensor " + t + " ('"
                        + tensor.name() + "'): offline offset " + offsets[t] + ", but TFLite gives it no rw memory of "
                        + "its own (" + (tensor.allocation() == Allocation.ARENA_RW ? "an in-place alias or unused"
                        : tensor.allocation().jsonName()) + "), so it cannot sit there; plan it online (-1)");
            }
        }
        return new PlacerPlanner(new TflmGreedyPlacer(placed)).plan(subgraph, options);
    }
}
