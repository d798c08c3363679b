package dev.tflitearena.plan.place;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans a subgraph with a {@link Placer} for the rw arena, under TFLite's lifetimes; in-place aliases take
 * their root's offset, and the persistent arena is laid out as TFLite lays it out.
 */
public final class PlacerPlanner implements Planner {
    private final Placer placer;

    public PlacerPlanner(Placer placer) {
        this.placer = placer;
    }

    @Override
    public String name() {
        return placer.name();
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        Lifetimes lifetimes = Lifetimes.of(subgraph, options);
        BufferSet buffers = BufferSet.of(lifetimes, options.tensorAlignment());
        SubgraphPlan tflite = new TflitePlanner().plan(subgraph, options);
        Placer.Solution solution = placer.place(buffers, rwOffsets(tflite, buffers));
        return withPlacement(subgraph, tflite, buffers, solution);
    }

    /**
     * TFLite's plan of the subgraph with the rw buffers of {@code buffers} (the subgraph's, by tensor index) at
     * the solution's offsets, validated first.
     */
    public static SubgraphPlan withPlacement(Subgraph subgraph, SubgraphPlan tflite, BufferSet buffers,
                                             Placer.Solution solution) {
        long[] placed = solution.offsets();
        buffers.validate(placed);
        long[] offset = new long[subgraph.tensors().size()];
        java.util.Arrays.fill(offset, -1);
        for (int i = 0; i < placed.length; i++) {
            offset[buffers.buffers().get(i).id()] = placed[i];
        }
        long arena = buffers.arenaBytes(placed);
        return withRwOffsets(subgraph, tflite, offset, arena,
                solution.provenOptimal() || arena == buffers.lowerBound());
    }

    /**
     * TFLite's plan of the subgraph with its rw tensors moved to {@code offset} (by tensor index, for the
     * tensors that own memory) in an rw arena of {@code arena} bytes: aliases follow their root, the
     * persistent arena stays as TFLite lays it out.
     */
    public static SubgraphPlan withRwOffsets(Subgraph subgraph, SubgraphPlan tflite, long[] offset, long arena,
                                             boolean provenOptimal) {
        List<Placement> placements = new ArrayList<>();
        for (Placement p : tflite.placements()) {
            Tensor tensor = subgraph.tensor(p.tensor());
            if (tensor.allocation() != Allocation.ARENA_RW) {
                placements.add(p);
                continue;
            }
            int root = p.aliasOf();
            long at = root >= 0 ? (subgraph.tensor(root).allocation() == Allocation.ARENA_RW ? offset[root] : -1)
                    : offset[p.tensor()];
            placements.add(new Placement(p.tensor(), p.arena(), at, p.bytes(), p.first(), p.last(), root));
        }
        return new SubgraphPlan(subgraph.index(), arena, tflite.persistentBytes(), placements, provenOptimal);
    }

    /**
     * A plan's offsets for the set's buffers, in set order: TFLite's are a valid start for placers that improve
     * on one.
     */
    public static long[] rwOffsets(SubgraphPlan plan, BufferSet buffers) {
        long[] byTensor = new long[plan.placements().stream().mapToInt(Placement::tensor).max().orElse(-1) + 1];
        for (Placement p : plan.placements()) {
            byTensor[p.tensor()] = p.offset();
        }
        return buffers.buffers().stream().mapToLong(b -> byTensor[b.id()]).toArray();
    }
}
