package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks a plan against the graph it claims to place, with lifetimes derived from the graph, never from the
 * plan: every arena tensor that needs memory has it, aligned and inside its arena; in-place aliases sit
 * exactly on their root; no two tensors whose lifetimes overlap share a byte.
 */
public final class PlanValidator {
    private PlanValidator() {
    }

    /** Throws {@link InvalidPlanException} naming the first problem found. */
    public static void validate(Graph graph, Plan plan, long requiredAlignment) {
        if (plan.subgraphs().size() != graph.subgraphs().size()) {
            throw new InvalidPlanException("plan '" + plan.planner() + "' covers " + plan.subgraphs().size()
                    + " subgraphs, the graph has " + graph.subgraphs().size());
        }
        for (SubgraphPlan sp : plan.subgraphs()) {
            validate(graph.subgraphs().get(sp.subgraph()), graph.options(), sp, requiredAlignment);
        }
    }

    private record Extent(int tensor, long offset, long end, int first, int last, int root) {
    }

    private static void validate(Subgraph subgraph, Graph.Options options, SubgraphPlan plan, long alignment) {
        String where = "subgraph " + subgraph.index();
        Lifetimes lifetimes = Lifetimes.of(subgraph, options);
        Placement[] byTensor = new Placement[subgraph.tensors().size()];
        for (Placement p : plan.placements()) {
            if (p.tensor() < 0 || p.tensor() >= byTensor.length) {
                throw new InvalidPlanException(where + ": the plan places tensor " + p.tensor()
                        + ", which does not exist");
            }
            if (byTensor[p.tensor()] != null) {
                throw new InvalidPlanException(where + ": the plan places tensor " + p.tensor() + " twice");
            }
            byTensor[p.tensor()] = p;
        }
        List<Extent> rw = new ArrayList<>();
        List<Extent> persistent = new ArrayList<>();
        int end = Math.max(lifetimes.nodeCount() - 1, 0);
        for (Tensor tensor : subgraph.tensors()) {
            if (!tensor.allocation().isArena()) {
                continue;
            }
            int t = tensor.index();
            Placement p = byTensor[t];
            int root = lifetimes.aliasRoot(t) >= 0
                    && subgraph.tensor(lifetimes.aliasRoot(t)).allocation() == tensor.allocation()
                    ? lifetimes.aliasRoot(t) : t;
            boolean needsMemory = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED && tensor.bytes() > 0;
            if (!needsMemory) {
                continue;
            }
            if (p == null || !p.hasMemory()) {
                throw new InvalidPlanException(name(where, tensor) + ": lives from node " + lifetimes.allocNode(t)
                        + " but the plan gives it no memory");
            }
            boolean isPersistent = tensor.allocation() == Allocation.ARENA_RW_PERSISTENT;
            long arenaBytes = isPersistent ? plan.persistentBytes() : plan.arenaBytes();
            if (p.offset() % alignment != 0) {
                throw new InvalidPlanException(name(where, tensor) + ": offset " + p.offset() + " is not a multiple of "
                        + alignment);
            }
            if (p.offset() + tensor.bytes() > arenaBytes) {
                throw new InvalidPlanException(name(where, tensor) + ": bytes " + p.offset() + ".."
                        + (p.offset() + tensor.bytes())
                        + " run past the end of the " + (isPersistent ? "persistent" : "rw") + " arena ("
                        + arenaBytes + " bytes)");
            }
            if (root != t) {
                Placement rootPlacement = byTensor[root];
                if (rootPlacement == null || rootPlacement.offset() != p.offset()) {
                    throw new InvalidPlanException(name(where, tensor) + ": shares tensor " + root
                            + "'s memory in place but is at "
                            + p.offset() + ", tensor " + root + " at "
                            + (rootPlacement == null ? "no offset" : rootPlacement.offset()));
                }
            }
            int first = lifetimes.allocNode(t);
            int last = isPersistent ? end : lifetimes.lastNode(t);
            (isPersistent ? persistent : rw).add(new Extent(t, p.offset(), p.offset() + tensor.bytes(), first, last,
                    root));
        }
        checkNoOverlap(subgraph, rw);
        checkNoOverlap(subgraph, persistent);
    }

    /** Sweeps the extents by offset; only pairs that share bytes are compared in time. */
    private static void checkNoOverlap(Subgraph subgraph, List<Extent> extents) {
        extents.sort(Comparator.comparingLong(Extent::offset));
        for (int i = 0; i < extents.size(); i++) {
            Extent a = extents.get(i);
            for (int j = i + 1; j < extents.size() && extents.get(j).offset < a.end; j++) {
                Extent b = extents.get(j);
                boolean sameMemory = a.root == b.root;
                boolean liveTogether = a.first <= b.last && b.first <= a.last;
                if (!sameMemory && liveTogether) {
                    throw new InvalidPlanException("subgraph " + subgraph.index() + ": tensors " + a.tensor
                            + describe(subgraph.tensor(a.tensor)) + " at bytes " + a.offset + ".." + a.end
                            + ", live at nodes " + a.first + ".." + a.last + ", and " + b.tensor
                            + describe(subgraph.tensor(b.tensor)) + " at bytes " + b.offset + ".." + b.end
                            + ", live at nodes " + b.first + ".." + b.last + ", share memory while both live");
                }
            }
        }
    }

    /** Only on a refusal: built for every tensor, the names cost more than the checks. */
    private static String name(String where, Tensor tensor) {
        return where + ", tensor " + tensor.index() + describe(tensor);
    }

    private static String describe(Tensor tensor) {
        return tensor.name().isEmpty() ? "" : " (" + tensor.name() + ")";
    }
}
