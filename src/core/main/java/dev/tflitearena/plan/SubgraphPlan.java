package dev.tflitearena.plan;

import java.util.List;

/**
 * A plan of one subgraph: a placement per arena tensor, in tensor index order, and both arena sizes.
 * {@code provenOptimal} says that no plan under the same lifetimes has a smaller rw arena.
 */
public record SubgraphPlan(int subgraph, long arenaBytes, long persistentBytes, List<Placement> placements,
                           boolean provenOptimal) {

    public SubgraphPlan {
        placements = List.copyOf(placements);
    }

    public SubgraphPlan(int subgraph, long arenaBytes, long persistentBytes, List<Placement> placements) {
        this(subgraph, arenaBytes, persistentBytes, placements, false);
    }
}
