package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.Arrays;

/**
 * Checks a plan against the graph it claims to place, with lifetimes and sizes derived from the graph, never from
 * the plan: every arena tensor that needs memory has it, of its own size, in its own arena, aligned and inside it; in-place aliases sit
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

    private static void validate(Subgraph subgraph, Graph.Options options, SubgraphPlan plan, long alignment) {
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
            if (!tensor.allocation().isArena()) {
                continue;
            }
            int t = tensor.index();
            Placement p = byTensor[t];
            int aliasRoot = lifetimes.aliasRoot(t);
            int root = aliasRoot >= 0 && subgraph.tensor(aliasRoot).allocation() == tensor.allocation() ? aliasRoot : t;
            boolean needsMemory = lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED && tensor.bytes() > 0;
            if (!needsMemory) {
                continue;
            }
            if (p == null || !p.hasMemory()) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": lives from node " + lifetimes.allocNode(t)
                        + " but the plan gives it no memory");
            }
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
            if (p.offset() + tensor.bytes() > arenaBytes) {
                throw new InvalidPlanException(name(subgraph, tensor) + ": bytes " + p.offset() + ".."
                        + (p.offset() + tensor.bytes())
                        + " run past the end of the " + (isPersistent ? "persistent" : "rw") + " arena ("
                        + arenaBytes + " bytes)");
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
            int last = isPersistent ? end : lifetimes.lastNode(t);
            (isPersistent ? persistent : rw).add(t, p.offset(), p.offset() + tensor.bytes(), lifetimes.allocNode(t),
                    last, root);
        }
        rw.checkNoOverlap(plan.arenaBytes());
        persistent.checkNoOverlap(plan.persistentBytes());
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
