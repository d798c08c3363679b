package dev.tflitearena.plan.order;

import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import org.tensorflow.lite.schema.BuiltinOperator;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which node must run before which: a node after the producers of its inputs, and the nodes that touch state
 * in the model's relative order. A node touches state when it is a side-effecting or control-flow op, a
 * custom op (whose effects are unknown), reads or writes a variable tensor, writes a tensor another node
 * writes too, or has no output at all. Sets of nodes are bit sets of {@code long} words.
 */
final class Precedence {
    private static final Set<String> STATEFUL_OPS = Set.of("ASSIGN_VARIABLE", "READ_VARIABLE", "VAR_HANDLE",
            "CALL_ONCE", "WHILE", "IF", "DELEGATE", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT",
            "HASHTABLE_SIZE", "HASHTABLE_LOOKUP", "RANDOM_UNIFORM", "RANDOM_STANDARD_NORMAL", "MULTINOMIAL");
    private static final Set<String> BUILTIN_OPS = Arrays.stream(BuiltinOperator.names)
            .filter(name -> !name.isEmpty()).collect(Collectors.toUnmodifiableSet());

    private final int nodes;
    private final long[][] predecessors;
    private final int[][] successors;

    private Precedence(int nodes, long[][] predecessors, int[][] successors) {
        this.nodes = nodes;
        this.predecessors = predecessors;
        this.successors = successors;
    }

    /** The precedence of the subgraph's nodes, whose own order must respect it. */
    static Precedence of(Subgraph subgraph) {
        int n = subgraph.nodes().size();
        int[] writers = new int[subgraph.tensors().size()];
        for (Node node : subgraph.nodes()) {
            for (int t : node.outputs()) {
                if (t >= 0) {
                    writers[t]++;
                }
            }
        }
        long[][] predecessors = new long[n][words(n)];
        int[] producer = new int[subgraph.tensors().size()];
        Arrays.fill(producer, -1);
        int lastStateful = -1;
        for (int v = 0; v < n; v++) {
            Node node = subgraph.nodes().get(v);
            for (int t : node.inputs()) {
                if (t >= 0 && producer[t] >= 0 && producer[t] != v) {
                    set(predecessors[v], producer[t]);
                }
            }
            if (touchesState(subgraph, node, writers)) {
                if (lastStateful >= 0) {
                    set(predecessors[v], lastStateful);
                }
                lastStateful = v;
            }
            for (int t : node.outputs()) {
                if (t >= 0) {
                    producer[t] = v;
                }
            }
        }
        int[][] successors = new int[n][];
        int[] count = new int[n];
        for (int v = 0; v < n; v++) {
            for (int p = nextSet(predecessors[v], 0); p >= 0; p = nextSet(predecessors[v], p + 1)) {
                count[p]++;
            }
        }
        for (int v = 0; v < n; v++) {
            successors[v] = new int[count[v]];
            count[v] = 0;
        }
        for (int v = 0; v < n; v++) {
            for (int p = nextSet(predecessors[v], 0); p >= 0; p = nextSet(predecessors[v], p + 1)) {
                successors[p][count[p]++] = v;
            }
        }
        return new Precedence(n, predecessors, successors);
    }

    private static boolean touchesState(Subgraph subgraph, Node node, int[] writers) {
        if (STATEFUL_OPS.contains(node.op()) || !BUILTIN_OPS.contains(node.op()) || node.outputs().length == 0) {
            return true;
        }
        for (int t : node.inputs()) {
            if (t >= 0 && subgraph.tensor(t).variable()) {
                return true;
            }
        }
        for (int t : node.outputs()) {
            if (t >= 0 && (subgraph.tensor(t).variable() || writers[t] > 1)) {
                return true;
            }
        }
        return false;
    }

    int nodes() {
        return nodes;
    }

    int[] successors(int node) {
        return successors[node];
    }

    /** The nodes that must run right before {@code node}; shared, not copied: treat as read-only. */
    long[] predecessors(int node) {
        return predecessors[node];
    }

    /** Whether every node that must run before {@code node} is in {@code done}. */
    boolean ready(long[] done, int node) {
        long[] before = predecessors[node];
        for (int w = 0; w < before.length; w++) {
            if ((before[w] & ~done[w]) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The nodes that may run first. */
    long[] sources() {
        long[] none = new long[words(nodes)];
        long[] ready = new long[none.length];
        for (int v = 0; v < nodes; v++) {
            if (ready(none, v)) {
                set(ready, v);
            }
        }
        return ready;
    }

    /** Adds {@code node}, one of {@code ready}, to {@code done}, and to {@code ready} the nodes it lets run. */
    void run(long[] done, long[] ready, int node) {
        set(done, node);
        ready[node >>> 6] &= ~(1L << node);
        for (int w : successors[node]) {
            if (ready(done, w)) {
                set(ready, w);
            }
        }
    }

    /** Whether {@code order} runs every node once, each after those it must follow. */
    boolean isTopological(int[] order) {
        if (order.length != nodes) {
            return false;
        }
        long[] done = new long[words(nodes)];
        for (int v : order) {
            if (v < 0 || v >= nodes || has(done, v) || !ready(done, v)) {
                return false;
            }
            set(done, v);
        }
        return true;
    }

    /** The nodes that some other node may run before or after: those not ordered against every other one. */
    int nodesWithChoice() {
        long[][] ancestors = new long[nodes][];
        int[] descendants = new int[nodes];
        for (int v = 0; v < nodes; v++) {
            ancestors[v] = predecessors[v].clone();
            // Every predecessor comes earlier in the model's order, so its ancestors are complete.
            for (int p = nextSet(predecessors[v], 0); p >= 0; p = nextSet(predecessors[v], p + 1)) {
                or(ancestors[v], ancestors[p]);
            }
            for (int a = nextSet(ancestors[v], 0); a >= 0; a = nextSet(ancestors[v], a + 1)) {
                descendants[a]++;
            }
        }
        int withChoice = 0;
        for (int v = 0; v < nodes; v++) {
            if (count(ancestors[v]) + descendants[v] < nodes - 1) {
                withChoice++;
            }
        }
        return withChoice;
    }

    static int words(int bits) {
        return Math.max((bits + 63) >>> 6, 1);
    }

    static void set(long[] bits, int i) {
        bits[i >>> 6] |= 1L << i;
    }

    static boolean has(long[] bits, int i) {
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    static int nextSet(long[] bits, int from) {
        int w = from >>> 6;
        if (w >= bits.length) {
            return -1;
        }
        long word = bits[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == bits.length) {
                return -1;
            }
            word = bits[w];
        }
    }

    static void or(long[] into, long[] bits) {
        for (int w = 0; w < into.length; w++) {
            into[w] |= bits[w];
        }
    }

    private static int count(long[] bits) {
        int c = 0;
        for (long word : bits) {
            c += Long.bitCount(word);
        }
        return c;
    }
}
