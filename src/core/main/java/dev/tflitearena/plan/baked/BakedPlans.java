package dev.tflitearena.plan.baked;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A baked plan fitted to the graph a session prepared. */
public final class BakedPlans {
    private BakedPlans() {
    }

    /**
     * The plan without the tensors the graph keeps out of its arenas, such as the constant-derived ones a pool
     * of sessions shares: their rw places stay free, and the persistent arena closes up over them, every
     * persistent tensor keeping its order at the graph's alignment (they live for the whole run, so any
     * sequence of them is a valid layout). A plan that places only arena tensors is returned as it is.
     */
    public static Plan fitted(Plan plan, Graph graph) {
        List<SubgraphPlan> fitted = new ArrayList<>(plan.subgraphs().size());
        boolean changed = false;
        for (SubgraphPlan sp : plan.subgraphs()) {
            // An entry naming no subgraph of the graph is left for the validator to refuse.
            Subgraph subgraph = sp.subgraph() >= 0 && sp.subgraph() < graph.subgraphs().size()
                    ? graph.subgraphs().get(sp.subgraph()) : null;
            List<Placement> kept = subgraph == null ? sp.placements() : sp.placements().stream()
                    .filter(p -> p.tensor() < 0 || p.tensor() >= subgraph.tensors().size()
                            || subgraph.tensor(p.tensor()).allocation().isArena()).toList();
            if (kept.size() == sp.placements().size()) {
                fitted.add(sp);
                continue;
            }
            changed = true;
            fitted.add(closedUp(sp, kept, Lifetimes.of(subgraph, graph.options()), graph.options().tensorAlignment()));
        }
        return changed ? new Plan(plan.planner(), fitted) : plan;
    }

    /** The alias roots come from the graph, as the validator's do: the plan's may say anything. */
    private static SubgraphPlan closedUp(SubgraphPlan sp, List<Placement> kept, Lifetimes lifetimes, int alignment) {
        List<Placement> roots = kept.stream()
                .filter(p -> p.arena() == Arena.PERSISTENT && p.hasMemory() && root(lifetimes, p) == p.tensor())
                .sorted(Comparator.comparingLong(Placement::offset)).toList();
        Map<Integer, Long> moved = new HashMap<>();
        long end = 0;
        for (Placement p : roots) {
            long offset = SimpleMemoryArena.alignUp(end, alignment);
            if (p.bytes() > Long.MAX_VALUE / 2 - offset) {
                throw new InvalidPlanException("subgraph " + sp.subgraph() + ", tensor " + p.tensor() + ": the plan "
                        + "gives it " + p.bytes() + " bytes, more than any arena holds");
            }
            moved.put(p.tensor(), offset);
            end = offset + p.bytes();
        }
        List<Placement> placements = new ArrayList<>(kept.size());
        for (Placement p : kept) {
            // An in-place alias moves with its root.
            Long offset = moved.get(root(lifetimes, p));
            placements.add(p.arena() != Arena.PERSISTENT || offset == null ? p
                    : new Placement(p.tensor(), p.arena(), offset, p.bytes(), p.first(), p.last(), p.aliasOf()));
        }
        return new SubgraphPlan(sp.subgraph(), sp.arenaBytes(), end, placements, sp.provenOptimal());
    }

    /** The tensor whose memory the placed one shares, itself if none; a tensor the graph lacks is its own root. */
    private static int root(Lifetimes lifetimes, Placement p) {
        int t = p.tensor();
        int root = t >= 0 && t < lifetimes.subgraph().tensors().size() ? lifetimes.aliasRoot(t) : -1;
        return root >= 0 ? root : t;
    }
}
