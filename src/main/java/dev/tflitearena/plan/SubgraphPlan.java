package dev.tflitearena.plan;

import java.util.List;

/** A plan of one subgraph: a placement per arena tensor, in tensor index order, and both arena sizes. */
public record SubgraphPlan(int subgraph, long arenaBytes, long persistentBytes, List<Placement> placements) {

    public SubgraphPlan {
        placements = List.copyOf(placements);
    }
}
