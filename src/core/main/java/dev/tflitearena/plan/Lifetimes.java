package dev.tflitearena.plan;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.InvalidGraphException;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TfliteRelease;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * When each tensor of a subgraph lives, and which outputs share their input's memory, under TFLite's
 * ArenaPlanner rules ({@code PlanAllocations}, {@code IdentifyInPlaceTensors} and the temporaries of
 * {@code ExecuteAllocations}) as the graph's release has them ({@link TfliteRelease#sharing()}). Every planner
 * of this project places tensors within these lifetimes.
 *
 * <p>With {@link Graph.Options#releaseInputs()} one rule is relaxed: in the primary subgraph a graph input lives
 * from node 0 to its last consumer instead of to the end (an input no node reads, at node 0 only). Everything
 * else keeps TFLite's rule: an input that is also a graph output still lives to the end, variables (state)
 * never end, no output shares an input's memory in place (TFLite never lets a graph input be shared, so an
 * input is never an alias root) and control-flow subgraphs, whose inputs their WHILE or IF writes, keep theirs.
 * {@code preserveAllTensors} frees nothing, inputs included.
 */
public final class Lifetimes {
    /** TFLite's kNodeNotAssigned: "not allocated" as a first node, "never freed" as a last node. */
    public static final int NOT_ASSIGNED = Integer.MAX_VALUE;
    private static final int SCALAR_TENSOR_BYTES = 4;
    /** The ops whose output 0 TFLite 2.12 lets share input 0 ({@code ShareFirstInputWithFirstOutputForNode}). */
    private static final Set<String> SHARING_OPS_2_12 = Set.of("EXPAND_DIMS", "RESHAPE", "SQUEEZE", "BITCAST");

    /** What {@link #of} derived last on each thread, held weakly: it keeps its whole subgraph alive. */
    private static final ThreadLocal<WeakReference<Lifetimes>> LAST =
            ThreadLocal.withInitial(() -> new WeakReference<>(null));

    private final Subgraph subgraph;
    private final Graph.Options options;
    private final int[] allocNode;
    private final int[] deallocNode;
    private final int[] aliasRoot;
    private final int[][] nodeTensors;

    private Lifetimes(Subgraph subgraph, Graph.Options options, int[] allocNode, int[] deallocNode, int[] aliasRoot,
                      int[][] nodeTensors) {
        this.subgraph = subgraph;
        this.options = options;
        this.allocNode = allocNode;
        this.deallocNode = deallocNode;
        this.aliasRoot = aliasRoot;
        this.nodeTensors = nodeTensors;
    }

    /** The lifetimes under the rules of the options' release; the calling thread remembers them for {@link #reuse}. */
    public static Lifetimes of(Subgraph subgraph, Graph.Options options) {
        Lifetimes made = new Builder(subgraph, options).build();
        LAST.set(new WeakReference<>(made));
        return made;
    }

    /**
     * The lifetimes this thread derived last, if they are of this very subgraph (the same object, which is
     * immutable) under equal options; else derived anew. For the validator checking a plan right after its
     * planner derived them: a set-up would otherwise derive the same lifetimes twice in a row.
     */
    public static Lifetimes reuse(Subgraph subgraph, Graph.Options options) {
        Lifetimes last = LAST.get().get();
        return last != null && last.subgraph == subgraph && last.options.equals(options) ? last : of(subgraph, options);
    }

    public Subgraph subgraph() {
        return subgraph;
    }

    public int nodeCount() {
        return subgraph.nodes().size();
    }

    /** The node that first needs the tensor, or {@link #NOT_ASSIGNED}. */
    public int allocNode(int tensor) {
        return allocNode[tensor];
    }

    /** The node after which the tensor may be overwritten, or {@link #NOT_ASSIGNED} when it lives to the end. */
    public int deallocNode(int tensor) {
        return deallocNode[tensor];
    }

    /** The last node during which the tensor's memory must hold it: the end of the graph when never freed. */
    public int lastNode(int tensor) {
        int t = aliasRoot[tensor] >= 0 ? aliasRoot[tensor] : tensor;
        return deallocNode[t] == NOT_ASSIGNED ? Math.max(nodeCount() - 1, 0) : deallocNode[t];
    }

    /** The tensor whose memory this one shares in place, or -1 when it has its own. */
    public int aliasRoot(int tensor) {
        return aliasRoot[tensor];
    }

    /** Lives from the first node to the end: TFLite places these first, by index. */
    public boolean isWholeLifetime(int tensor) {
        return allocNode[tensor] == 0 && deallocNode[tensor] == NOT_ASSIGNED;
    }

    /**
     * The tensors TFLite files under each node, in insertion order: at node 0 the variables then the graph
     * inputs, then each node's outputs, then its temporaries. The planner's candidate order derives from it.
     */
    public int[] nodeTensors(int node) {
        return nodeTensors[node];
    }

    private static final class Builder {
        private final Subgraph subgraph;
        private final Graph.Options options;
        private final boolean preserveAll;
        private final boolean releaseInputs;
        private final TfliteRelease release;
        private final int[] allocNode;
        private final int[] deallocNode;
        private final int[] aliasRoot;
        /** Graph pins plus every input use: what decides whether an input may be shared in place. */
        private final int[] useCount;
        private final int[][] nodeTensors;

        Builder(Subgraph subgraph, Graph.Options options) {
            this.subgraph = subgraph;
            this.options = options;
            this.preserveAll = options.preserveAllTensors();
            this.releaseInputs = options.releaseInputs() && subgraph.index() == 0;
            this.release = options.release();
            int tensors = subgraph.tensors().size();
            allocNode = filled(tensors, NOT_ASSIGNED);
            deallocNode = filled(tensors, NOT_ASSIGNED);
            aliasRoot = filled(tensors, -1);
            useCount = new int[tensors];
            nodeTensors = new int[Math.max(subgraph.nodes().size(), 1)][];
        }

        Lifetimes build() {
            for (int t : subgraph.outputs()) {
                if (t >= 0) {
                    useCount[t]++;
                }
            }
            int[] node0 = new int[subgraph.variables().length + present(subgraph.inputs())];
            int filedAtNode0 = 0;
            for (int t : subgraph.variables()) {
                useCount[t]++;
                assignAlloc(0, t);
                node0[filedAtNode0++] = t;
            }
            for (int t : subgraph.inputs()) {
                if (t >= 0) {
                    useCount[t]++;
                    assignAlloc(0, t);
                    node0[filedAtNode0++] = t;
                }
            }
            int[] liveCount = useCount.clone();
            if (releaseInputs) {
                // The pin stays in useCount: whether an input may be shared in place is TFLite's decision.
                for (int t : subgraph.inputs()) {
                    if (t >= 0) {
                        liveCount[t]--;
                    }
                }
            }
            List<Node> nodes = subgraph.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                for (int t : nodes.get(i).inputs()) {
                    if (t >= 0) {
                        useCount[t]++;
                    }
                }
            }
            if (!preserveAll || release.sharingUnderPreserveAll()) {
                if (release.sharing() == TfliteRelease.Sharing.RESHAPE_OPS) {
                    identifySharedTensors();
                } else {
                    identifyInPlaceTensors();
                }
            }
            for (int i = 0; i < nodes.size(); i++) {
                for (int t : nodes.get(i).inputs()) {
                    if (t >= 0) {
                        liveCount[root(t)]++;
                    }
                }
            }
            if (releaseInputs && !preserveAll) {
                for (int t : subgraph.inputs()) {
                    if (t >= 0 && liveCount[t] == 0 && deallocNode[t] == NOT_ASSIGNED) {
                        assignDealloc(0, t);
                    }
                }
            }
            for (int i = 0; i < nodes.size(); i++) {
                Node node = nodes.get(i);
                // Sized for the temporaries too, which addTemporaries files at the end once all lifetimes are set.
                int[] filed = new int[(i == 0 ? node0.length : 0) + present(node.outputs())
                        + node.temporaries().length];
                int count = 0;
                if (i == 0) {
                    System.arraycopy(node0, 0, filed, 0, node0.length);
                    count = node0.length;
                }
                for (int t : node.outputs()) {
                    if (t >= 0) {
                        filed[count++] = t;
                        assignAlloc(i, t);
                    }
                }
                if (!preserveAll) {
                    for (int t : node.inputs()) {
                        if (t >= 0) {
                            int r = root(t);
                            if (--liveCount[r] == 0) {
                                assignDealloc(i, r);
                            }
                        }
                    }
                }
                nodeTensors[i] = filed;
            }
            if (nodes.isEmpty()) {
                nodeTensors[0] = node0;
            }
            addTemporaries();
            dropAliasesOfUnsharableRoots();
            return new Lifetimes(subgraph, options, allocNode, deallocNode, aliasRoot, nodeTensors);
        }

        /** Temporaries are known only after the kernels' prepare; TFLite adds them in ExecuteAllocations. */
        private void addTemporaries() {
            for (int i = 0; i < subgraph.nodes().size(); i++) {
                int[] temporaries = subgraph.nodes().get(i).temporaries();
                int[] filed = nodeTensors[i];
                int count = filed.length - temporaries.length;
                for (int t : temporaries) {
                    allocNode[t] = i;
                    filed[count++] = t;
                    if (!preserveAll) {
                        deallocNode[t] = i;
                    }
                }
            }
        }

        /** TFLite 2.13 and later: the registrations' in-place flags say which input output 0 may share. */
        private void identifyInPlaceTensors() {
            for (Node node : subgraph.nodes()) {
                if (node.outputs().length < 1 || node.inplace() == Inplace.NONE) {
                    continue;
                }
                boolean changed = (node.inplace() & Inplace.DATA_UNMODIFIED) == 0;
                int output = node.outputs()[0];
                int shared = -1;
                int candidates = Math.min(Inplace.MAX_SHARABLE_INPUTS, node.inputs().length);
                for (int k = 0; k < candidates; k++) {
                    int input = node.inputs()[k];
                    if (input >= 0 && (node.inplace() & (Inplace.INPUT0_SHARED << k)) != 0
                            && canShare(input, output, changed)) {
                        shared = input;
                        break;
                    }
                }
                if (shared < 0) {
                    continue;
                }
                int r = root(shared);
                if (changed && useCount[r] > 1) {
                    continue;
                }
                aliasRoot[output] = r;
            }
        }

        /** TFLite 2.12: the reshaping ops' output 0 shares input 0 when both have the same allocation type. */
        private void identifySharedTensors() {
            for (Node node : subgraph.nodes()) {
                if (!SHARING_OPS_2_12.contains(node.op()) || node.inputs().length == 0
                        || node.outputs().length == 0) {
                    continue;
                }
                int input = node.inputs()[0];
                int output = node.outputs()[0];
                if (input < 0 || output < 0
                        || contains(subgraph.inputs(), input) || contains(subgraph.outputs(), output)) {
                    continue;
                }
                Allocation kind = subgraph.tensor(input).allocation();
                if (kind == subgraph.tensor(output).allocation() && kind.isArena()) {
                    aliasRoot[output] = root(input);
                }
            }
        }

        private boolean canShare(int input, int output, boolean changed) {
            Tensor in = subgraph.tensor(input);
            Tensor out = subgraph.tensor(output);
            if (changed && (in.bytes() != out.bytes() || in.bytes() <= SCALAR_TENSOR_BYTES || useCount[input] > 1)) {
                return false;
            }
            if (contains(subgraph.inputs(), input) || contains(subgraph.outputs(), output)) {
                return false;
            }
            return in.allocation() == out.allocation() || in.allocation() == Allocation.ARENA_RW;
        }

        /**
         * TFLite re-checks an alias when it would place it: from 2.13 a root that is not an ArenaRw tensor of
         * the same size cannot hold the alias; 2.12 only asks that the root still be in an arena. A dropped
         * alias gets memory of its own (its planned lifetime unchanged). Only tensors TFLite would place are
         * re-checked: ArenaRw ones with bytes, and persistent ones.
         */
        private void dropAliasesOfUnsharableRoots() {
            for (int t = 0; t < aliasRoot.length; t++) {
                int r = aliasRoot[t];
                if (r < 0 || allocNode[t] == NOT_ASSIGNED) {
                    continue;
                }
                Tensor alias = subgraph.tensor(t);
                boolean placed = alias.allocation() == Allocation.ARENA_RW_PERSISTENT
                        || (alias.allocation() == Allocation.ARENA_RW && alias.bytes() > 0);
                Tensor root = subgraph.tensor(r);
                boolean unsharable = release.sharing() == TfliteRelease.Sharing.RESHAPE_OPS
                        ? !root.allocation().isArena()
                        : root.allocation() != Allocation.ARENA_RW || root.bytes() != alias.bytes();
                if (placed && unsharable) {
                    aliasRoot[t] = -1;
                }
            }
        }

        private int root(int tensor) {
            return aliasRoot[tensor] >= 0 ? aliasRoot[tensor] : tensor;
        }

        private void assignAlloc(int node, int tensor) {
            if (allocNode[tensor] != NOT_ASSIGNED) {
                return;
            }
            if (deallocNode[tensor] != NOT_ASSIGNED) {
                throw new InvalidGraphException("subgraph " + subgraph.index() + ", node " + node + ": output tensor "
                        + tensor + " is produced after its last use at node " + deallocNode[tensor]);
            }
            allocNode[tensor] = node;
        }

        private void assignDealloc(int node, int tensor) {
            if (allocNode[tensor] == NOT_ASSIGNED) {
                return;
            }
            if (deallocNode[tensor] != NOT_ASSIGNED) {
                throw new InvalidGraphException("subgraph " + subgraph.index() + ", node " + node + ": tensor "
                        + tensor + " was already released at node " + deallocNode[tensor]);
            }
            deallocNode[tensor] = node;
        }

        private static boolean contains(int[] list, int value) {
            for (int v : list) {
                if (v == value) {
                    return true;
                }
            }
            return false;
        }

        /** How many of the indices are tensors, not -1 for an absent optional one. */
        private static int present(int[] tensors) {
            int count = 0;
            for (int t : tensors) {
                if (t >= 0) {
                    count++;
                }
            }
            return count;
        }

        private static int[] filled(int length, int value) {
            int[] a = new int[length];
            Arrays.fill(a, value);
            return a;
        }
    }
}
