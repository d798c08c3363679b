package dev.tflitearena.plan.group;

import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;

import java.util.List;

/**
 * The plan of a group of models run one after another, in group order.
 *
 * @param planner       the placer of the shared region, and the planner of everything else
 * @param sharedBytes   the rw region the models' primary subgraphs share
 * @param models        a plan per model: its primary subgraph's rw offsets point into the shared region (its
 *                      arena bytes are the region's); its persistent arenas and other subgraphs are its own
 * @param aloneBytes    each model's rw arenas planned alone by the planner of the same name, summed over its
 *                      subgraphs: what the models take today, each in an arena of its own
 * @param provenOptimal no placement of the group's timeline has a smaller shared region
 */
public record GroupPlan(String planner, long sharedBytes, List<Plan> models, List<Long> aloneBytes,
                        boolean provenOptimal) {

    public GroupPlan {
        models = List.copyOf(models);
        aloneBytes = List.copyOf(aloneBytes);
    }

    /** The rw bytes the group needs: the shared region and every model's other subgraphs' rw arenas. */
    public long arenaBytes() {
        return sharedBytes + models.stream().flatMap(p -> p.subgraphs().stream().skip(1))
                .mapToLong(SubgraphPlan::arenaBytes).sum();
    }

    /** The rw bytes of the models each in an arena of its own. */
    public long sumAloneBytes() {
        return aloneBytes.stream().mapToLong(Long::longValue).sum();
    }

    /** The rw bytes of the model that needs the most alone: what a group is measured against. */
    public long largestAloneBytes() {
        return aloneBytes.stream().mapToLong(Long::longValue).max().orElse(0);
    }
}
