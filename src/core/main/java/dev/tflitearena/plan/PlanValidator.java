package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a plan against the graph it claims to place, with lifetimes and sizes derived from the graph, never from
 * the plan: one entry per subgraph, each naming a subgraph of the graph; every arena tensor that needs memory has
 * it, and every placement with memory (an empty alias takes its root's) is of its tensor's own size, in its own
 * arena, aligned and inside it; in-place aliases sit exactly on their root; no two tensors whose lifetimes overlap
 * share a byte; each declared arena is what its placements need, rounded up to the alignment. A placement's first
 * and last node and alias root are never read: whoever applies a validated plan takes them from the graph
 * ({@link #validated}). Sizes and offsets may be anything a file holds: no sum here can wrap.
 */
public final class PlanValidator {
    private PlanValidator() {
    }

    /** Throws {@link InvalidPlanException} naming the first problem found. */
    public static void validate(Graph graph, Plan plan, long requiredAlignment) {
        validate(graph, plan, requiredAlignment, false);
    }

    /**
     * As {@link #validate(Graph, Plan, long)}, and returns the plan as it is applied: its subgraph entries in
     * subgraph order, and each placement's first and last node and alias root as the graph has them (a plan from
     * a file may say anything there); the plan itself when it says so already.
     */
    public static Plan validated(Graph graph, Plan plan, long requiredAlignment) {
        return validate(graph, plan, requiredAlignment, false);
    }

    /**
     * As {@link #validate(Graph, Plan, long)}, for a model's plan in a group: its primary rw arena is the
     * group's shared region, which the group's validator checks, and may be larger than its own tensors need.
     */
    public static void validateInGroup(Graph graph, Plan plan, long requiredAlignment) {
        validate(graph, plan, requiredAlignment, true);
    }

    private static Plan validate(Graph graph, Plan plan, long alignment, boolean primaryShared) {
        if (alignment <= 0) {
            throw new IllegalArgumentException("alignment " + alignment + " is not positive");
        }
        SubgraphPlan[] byIndex = entriesByIndex(graph, plan);
        boolean changed = false;
        for (int s = 0; s < byIndex.length; s++) {
            SubgraphPlan applied = validate(graph.subgraphs().get(s), graph.options(), byIndex[s], alignment,
                    primaryShared && s == 0);
            changed |= applied != plan.subgraphs().get(s);
            byIndex[s] = applied;
        }
        return changed ? new Plan(plan.planner(), Arrays.asList(byIndex)) : plan;
    }

    /**
     * The plan's subgraph entries by the subgraph each names, refusing an index the graph lacks, two entries for
     * one subgraph and a subgraph without an entry.
     */
    public static SubgraphPlan[] entriesByIndex(Graph graph, Plan plan) {
        int count = graph.subgraphs().size();
        if (plan.subgraphs().size() != count) {
            throw new InvalidPlanException("plan '" + plan.planner() + "' covers " + plan.subgraphs().size()
                    + " subgraphs, the graph has " + count);
        }
        SubgraphPlan[] byIndex = new SubgraphPlan[count];
        int[] entryOf = new int[count];
        for (int e = 0; e < count; e++) {
            int index = plan.subgraphs().get(e).subgraph();
            if (index < 0 || index >= count) {
                throw new InvalidPlanException("plan '" + plan.planner() + "', subgraph entry " + e + ": names subgraph "
                        + index + ", the graph has subgraphs 0.." + (count - 1));
            }
            if (byIndex[index] != null) {
                throw new InvalidPlanException("plan '" + plan.planner() + "', subgraph entry " + e + ": names subgraph "
                        + index + ", as entry " + entryOf[index] + " does");
            }
            byIndex[index] = plan.subgraphs().get(e);
            entryOf[index] = e;
        }
        return byIndex;
    }

    /** The placements' first and last node and alias root as the lifetimes have them; {@code sp} when they agree. */
    private static SubgraphPlan normalized(SubgraphPlan sp, Lifetimes lifetimes) {
        List<Placement> placements = null;
        for (int i = 0; i < sp.placements().size(); i++) {
            Placement p = sp.placements().get(i);
            int t = p.tensor();
            boolean allocated = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED;
            int first = allocated ? lifetimes.allocNode(t) : -1;
            int last = allocated ? lifetimes.lastNode(t) : -1;
            int root = lifetimes.aliasRoot(t);
            if (placements == null && (p.first() != first || p.last() != last || p.aliasOf() != root)) {
                placements = new ArrayList<>(sp.placements().subList(0, i));
            }
            if (placements != null) {
                placements.add(new Placement(t, p.arena(), p.offset(), p.bytes(), first, last, root));
            }
        }
        return placements == null ? sp : new SubgraphPlan(sp.subgraph(), sp.arenaBytes(), sp.persistentBytes(),
                placements, sp.provenOptimal());
    }

    /** Validates one subgraph's entry, and returns it as it is applied ({@link #normalized}). */
    private static SubgraphPlan validate(Subgraph subgraph, Graph.Options options, SubgraphPlan plan, long alignment,
                                         boolean rwArenaShared) {
        if (plan.arenaBytes() < 0 || plan.persistentBytes() < 0) {
            throw new InvalidPlanException("subgraph " + subgraph.index() + ": the plan declares arenas of "
                    + plan.arenaBytes() + " (rw) and " + plan.persistentBytes() + " (persistent) bytes");
        }
        Lifetimes lifetimes = Lifetimes.reuse(subgraph, options);
        int tensorCount = subgraph.tensors().size();
        Placement[] byTensor = new Placement[tensorCount];
        for (Placement p : plan.placements()) {
            if (p.tensor() < 0 || p.tensor() >= byTensor.length) {
                throw new InvalidPlanException("subgraph " + subgraph.index() + ": the plan places tensor " + p.tensor()
                        + ", which does not exist");
            }
            if (byTensor[p.tensor()] != null) {
                throw new InvalidPlanException("subgraph " + subgraph.index() + ": the plan places tensor "
                        + p.tensor() + " twice");
            }
            if (p.offset() < -1) {
                throw new InvalidPlanException(name(subgraph, subgraph.tensor(p.tensor())) + ": offset "
                        + p.offset() + " is neither a place in the arena nor -1 (no memory)");
            }
            byTensor[p.tensor()] = p;
        }
        int persistentCount = 0;
        int arenaCount = 0;
        for (Tensor tensor : subgraph.tensors()) {
            persistentCount += tensor.allocation() == Allocation.ARENA_RW_PERSISTENT ? 1 : 0;
            arenaCount += tensor.allocation().isArena() ? 1 : 0;
        }
        Extents rw = new Extents(subgraph, arenaCount - persistentCount);
        Extents persistent = new Extents(subgraph, persistentCount);
        int end = Math.max(lifetimes.nodeCount() - 1, 0);
        for (Tensor tensor : subgraph.tensors()) {
            int t = tensor.index();
            Placement p = byTensor[t];
            if (!tensor.allocation().isArena()) {
                if (p != null && p.hasMemory()) {
                    throw new InvalidPlanException(name(subgraph, tensor) + ": the plan gives it bytes from "
                            + p.offset() + ", but it is " + tensor.allocation().jsonName() + ", not in an arena");
                }
                continue;
            }
            int aliasRoot = lifetimes.aliasRoot(t);
            int root = aliasRoot >= 0 && subgraph.tensor(aliasRoot).allocation() == tensor.allocation() ? aliasRoot : t;
            boolean needsMemory = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED && tensor.bytes() > 0;
            if (needsMemory && (p == null || !p.hasMemory())) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": lives from node " + lifetimes.allocNode(t)
                        + " but the plan gives it no memory");
            }
            if (p == null || !p.hasMemory()) {
                continue;
            }
            // A tensor that needs none may still have a place (an empty alias takes its root's), checked alike.
            boolean isPersistent = tensor.allocation() == Allocation.ARENA_RW_PERSISTENT;
            if (p.bytes() != tensor.bytes()) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": the plan gives it " + p.bytes()
                        + " bytes, the graph " + tensor.bytes());
            }
            if ((p.arena() == Arena.PERSISTENT) != isPersistent) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": the plan puts it in the " + p.arena().jsonName()
                        + " arena, the graph's tensor is " + tensor.allocation().jsonName());
            }
            long arenaBytes = isPersistent ? plan.persistentBytes() : plan.arenaBytes();
            if (p.offset() % alignment != 0) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": offset " + p.offset()
                        + " is not a multiple of " + alignment);
            }
            // Both are at least 0: the difference cannot wrap, where offset + bytes could.
            if (p.offset() > arenaBytes - tensor.bytes()) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": " + tensor.bytes() + " bytes at offset "
                        + p.offset() + " run past the end of the " + (isPersistent ? "persistent" : "rw")
                        + " arena (" + arenaBytes + " bytes)");
            }
            if (root != t) {
                Placement rootPlacement = byTensor[root];
                if (rootPlacement == null || rootPlacement.offset() != p.offset()) {
                    throw new InvalidPlanException(name(subgraph, tensor) + ": shares tensor " + root
                            + "'s memory in place but is at "
                            + p.offset() + ", tensor " + root + " at "
                            + (rootPlacement == null ? "no offset" : rootPlacement.offset()));
                }
            }
            if (!needsMemory) {
                continue;
            }
            int last = isPersistent ? end : lifetimes.lastNode(t);
            (isPersistent ? persistent : rw).add(t, p.offset(), p.offset() + tensor.bytes(), lifetimes.allocNode(t),
                    last, root);
        }
        rw.checkNoOverlap(plan.arenaBytes());
        persistent.checkNoOverlap(plan.persistentBytes());
        if (!rwArenaShared) {
            checkDeclared(subgraph, "rw", plan.arenaBytes(), rw.highestEnd(), alignment);
        }
        checkDeclared(subgraph, "persistent", plan.persistentBytes(), persistent.highestEnd(), alignment);
        return normalized(plan, lifetimes);
    }

    /**
     * Refuses an arena declared larger than its placements need, rounded up to the alignment: every session
     * would allocate the excess.
     */
    private static void checkDeclared(Subgraph subgraph, String arena, long declared, long needed, long alignment) {
        long rounded = needed % alignment == 0 ? needed : needed + alignment - needed % alignment;
        if (declared > rounded) {
            throw new InvalidPlanException("subgraph " + subgraph.index() + ": the plan declares a " + arena
                    + " arena of " + declared + " bytes, its placements need " + needed + " (" + rounded
                    + " rounded up to " + alignment + ")");
        }
    }

    /** The placed tensors of one arena, in primitive arrays: validation runs in every handover. */
    private static final class Extents {
        private final Subgraph subgraph;
        private final int[] tensor;
        private final long[] offset;
        private final long[] end;
        private final int[] first;
        private final int[] last;
        private final int[] root;
        private int count;

        Extents(Subgraph subgraph, int capacity) {
            this.subgraph = subgraph;
            tensor = new int[capacity];
            offset = new long[capacity];
            end = new long[capacity];
            first = new int[capacity];
            last = new int[capacity];
            root = new int[capacity];
        }

        void add(int t, long offset, long end, int first, int last, int root) {
            tensor[count] = t;
            this.offset[count] = offset;
            this.end[count] = end;
            this.first[count] = first;
            this.last[count] = last;
            this.root[count] = root;
            count++;
        }

        /** The end of the highest placed tensor; 0 without one. */
        long highestEnd() {
            long highest = 0;
            for (int i = 0; i < count; i++) {
                highest = Math.max(highest, end[i]);
            }
            return highest;
        }

        /**
         * Sweeps the extents by offset; only pairs that share bytes are compared in time. The order comes from
         * sorting each offset with its position in the low bits, as one long: a primitive sort, no boxing.
         */
        void checkNoOverlap(long arenaBytes) {
            if (count == 0) {
                return;
            }
            int bits = 64 - Long.numberOfLeadingZeros(count);
            if (arenaBytes >= 1L << (63 - bits)) {
                throw new InvalidPlanException("subgraph " + subgraph.index() + ": an arena of " + arenaBytes
                        + " bytes for " + count + " tensors is beyond what can be validated");
            }
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = offset[i] << bits | i;
            }
            Arrays.sort(keys);
            int[] byOffset = new int[count];
            long position = (1L << bits) - 1;
            for (int i = 0; i < count; i++) {
                byOffset[i] = (int) (keys[i] & position);
            }
            for (int i = 0; i < count; i++) {
                int a = byOffset[i];
                // The sorted keys hold the offsets in order: the sweep reads them in sequence.
                long endKey = end[a] << bits;
                for (int j = i + 1; j < count && keys[j] < endKey; j++) {
                    int b = byOffset[j];
                    boolean sameMemory = root[a] == root[b];
                    boolean liveTogether = first[a] <= last[b] && first[b] <= last[a];
                    if (!sameMemory && liveTogether) {
                        throw new InvalidPlanException("subgraph " + subgraph.index() + ": tensors " + describe(a)
                                + ", and " + describe(b) + ", share memory while both live");
                    }
                }
            }
        }

        private String describe(int i) {
            return tensor[i] + PlanValidator.describe(subgraph.tensor(tensor[i])) + " at bytes " + offset[i] + ".."
                    + end[i] + ", live at nodes " + first[i] + ".." + last[i];
        }
    }

    /** Only on a refusal: built for every tensor (or even once per subgraph), the names cost more than the checks. */
    private static String name(Subgraph subgraph, Tensor tensor) {
        return "subgraph " + subgraph.index() + ", tensor " + tensor.index() + describe(tensor);
    }

    private static String describe(Tensor tensor) {
        return tensor.name().isEmpty() ? "" : " (" + tensor.name() + ")";
    }
}
