package dev.tflitearena.plan.order;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Inplace;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.LowerBound;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryOrderTest {
    /** A single-subgraph graph of builtin ops (custom ones keep their order), tensors all ArenaRw. */
    private static final class Builder {
        final List<Tensor> tensors = new ArrayList<>();
        final List<Node> nodes = new ArrayList<>();
        int[] inputs = {};
        int[] outputs = {};

        int tensor(long bytes) {
            return tensor(bytes, Allocation.ARENA_RW);
        }

        int tensor(long bytes, Allocation allocation) {
            tensors.add(new Tensor(tensors.size(), "t" + tensors.size(), bytes, allocation, false, null, null));
            return tensors.size() - 1;
        }

        Builder node(String op, int[] in, int[] out, int[] temporaries, int inplace) {
            nodes.add(new Node(op, in, out, temporaries, new int[0], inplace));
            return this;
        }

        Builder node(String op, int[] in, int... out) {
            return node(op, in, out, new int[0], Inplace.NONE);
        }

        Graph build() {
            return new Graph(Graph.Options.DEFAULT, List.of(new Subgraph(0, "main", tensors, nodes, inputs, outputs,
                    new int[0])));
        }
    }

    private static int[] ids(int... tensors) {
        return tensors;
    }

    /**
     * x feeds two branches, each a big tensor then a small one, joined at the end. The model runs both big
     * ones before either small one: 10 + 100 + 100 + 10 at its peak; one branch after the other needs 130.
     */
    private static Graph twoBranches(String opOfSecondBranch) {
        Builder g = new Builder();
        int x = g.tensor(10), a1 = g.tensor(100), b1 = g.tensor(100), a2 = g.tensor(10), b2 = g.tensor(10);
        int y = g.tensor(10);
        g.node("ADD", ids(x), a1).node(opOfSecondBranch, ids(x), b1).node("ADD", ids(a1), a2)
                .node(opOfSecondBranch, ids(b1), b2).node("ADD", ids(a2, b2), y);
        g.inputs = ids(x);
        g.outputs = ids(y);
        return g.build();
    }

    @Test
    void theExactSearchRunsOneBranchAfterTheOther() {
        MemoryOrder.Result r = MemoryOrder.of(twoBranches("MUL"));
        assertEquals(MemoryOrder.EXACT, r.search());
        assertEquals(220, r.boundBefore());
        assertEquals(130, r.boundAfter());
        assertEquals(bruteForceLeast(twoBranches("MUL"), null), r.boundAfter());
        assertEquals(4, r.nodesWithChoice(), "all but the join may move");
        assertTrue(Precedence.of(twoBranches("MUL").subgraphs().get(0)).isTopological(r.order()));
        assertEquals(130, LowerBound.of(r.graph().subgraphs().get(0), r.graph().options()));
        assertTrue(r.reordered());
    }

    @Test
    void customOpsKeepTheirRelativeOrder() {
        // The second branch's ops are custom: its two nodes stay in order, and so does everything else
        // relative to them, yet the first branch may still run wholly before them.
        Graph graph = twoBranches("MyCustomOp");
        MemoryOrder.Result r = MemoryOrder.of(graph);
        assertEquals(130, r.boundAfter());
        assertTrue(indexOf(r.order(), 1) < indexOf(r.order(), 3));
        assertEquals(bruteForceLeast(graph, "MyCustomOp"), r.boundAfter());
    }

    @Test
    void variableTensorsPinTheOpsThatTouchThem() {
        // A read of a variable in each branch: those two keep their order, which here forbids the best one.
        Builder g = new Builder();
        int x = g.tensor(10), a1 = g.tensor(100), b1 = g.tensor(100), a2 = g.tensor(10), b2 = g.tensor(10);
        int y = g.tensor(10);
        int v = g.tensors.size();
        g.tensors.add(new Tensor(v, "var", 4, Allocation.ARENA_RW_PERSISTENT, true, null, null));
        g.node("ADD", ids(x, v), a1).node("ADD", ids(x, v), b1).node("ADD", ids(a1), a2).node("ADD", ids(b1), b2)
                .node("ADD", ids(a2, b2), y);
        g.inputs = ids(x);
        g.outputs = ids(y);
        MemoryOrder.Result r = MemoryOrder.of(g.build());
        assertTrue(indexOf(r.order(), 0) < indexOf(r.order(), 1));
        assertEquals(130, r.boundAfter(), "node 0, then its branch, then node 1's");
    }

    @Test
    void aChainHasNoChoiceAndKeepsItsOrder() {
        Builder g = new Builder();
        int x = g.tensor(10), a = g.tensor(50), b = g.tensor(20);
        g.node("ADD", ids(x), a).node("ADD", ids(a), b);
        g.inputs = ids(x);
        g.outputs = ids(b);
        MemoryOrder.Result r = MemoryOrder.of(g.build());
        assertEquals(0, r.nodesWithChoice());
        assertEquals(MemoryOrder.EXACT, r.search());
        assertArrayEquals(ids(0, 1), r.order());
        assertFalse(r.reordered());
        assertEquals(r.boundBefore(), r.boundAfter());
    }

    @Test
    void aSearchStoppedAtItsLimitFallsBackToThePortfolio() {
        MemoryOrder.Result r = MemoryOrder.of(twoBranches("MUL"), 2);
        assertEquals(MemoryOrder.PORTFOLIO, r.search());
        assertTrue(Precedence.of(twoBranches("MUL").subgraphs().get(0)).isTopological(r.order()));
        assertTrue(r.boundAfter() <= r.boundBefore());
        assertEquals(130, r.boundAfter(), "depth first and least peak first both find it here");
    }

    @Test
    void theExactSearchMatchesEveryOrderTriedOnRandomGraphs() {
        Random random = new Random(17);
        for (int trial = 0; trial < 100; trial++) {
            Graph graph = randomGraph(random, 4 + random.nextInt(5));
            MemoryOrder.Result r = MemoryOrder.of(graph);
            String what = "trial " + trial;
            assertEquals(MemoryOrder.EXACT, r.search(), what + ": the cost model agrees with the lower bound");
            assertEquals(bruteForceLeast(graph, null), r.boundAfter(), what);
            assertTrue(Precedence.of(graph.subgraphs().get(0)).isTopological(r.order()), what);
            assertEquals(r.boundAfter(), LowerBound.of(r.graph().subgraphs().get(0), graph.options()), what);
            assertTrue(r.boundAfter() <= r.boundBefore(), what);
        }
    }

    @Test
    void anOrderMustNameEveryNodeOnce() {
        Subgraph subgraph = twoBranches("MUL").subgraphs().get(0);
        assertThrows(IllegalArgumentException.class, () -> MemoryOrder.reorder(subgraph, ids(0, 1, 2, 3, 3)));
        assertThrows(IllegalArgumentException.class, () -> MemoryOrder.reorder(subgraph, ids(0, 1, 2, 3)));
    }

    /**
     * Nodes each output one tensor from earlier ones or the graph input; some have temporaries, some share
     * their input in place (a reshape), some outputs are persistent (as a DEQUANTIZE of constants makes its
     * output), some outputs are never read (TFLite keeps those to the end).
     */
    private static Graph randomGraph(Random random, int nodes) {
        Builder g = new Builder();
        int x = g.tensor(1 + random.nextInt(40));
        List<Integer> available = new ArrayList<>(List.of(x));
        for (int v = 0; v < nodes; v++) {
            int inputs = 1 + random.nextInt(Math.min(2, available.size()));
            int[] in = random.ints(0, available.size()).distinct().limit(inputs).map(available::get).toArray();
            boolean reshape = random.nextInt(5) == 0;
            int out = reshape ? g.tensor(g.tensors.get(in[0]).bytes()) : random.nextInt(6) == 0
                    ? g.tensor(1 + random.nextInt(100), Allocation.ARENA_RW_PERSISTENT) : g.tensor(1 + random.nextInt(100));
            int[] temporaries = random.nextInt(4) == 0 ? ids(g.tensor(1 + random.nextInt(60))) : ids();
            g.node(reshape ? "RESHAPE" : "ADD", in, ids(out), temporaries,
                    reshape ? Inplace.DATA_UNMODIFIED | Inplace.INPUT0_SHARED : Inplace.NONE);
            available.add(out);
        }
        g.inputs = ids(x);
        g.outputs = ids(available.get(available.size() - 1));
        return g.build();
    }

    /**
     * The least lower bound over every order that runs each node after the producers of its inputs, and the
     * nodes of {@code pinnedOp} (when not null) in the model's relative order.
     */
    private static long bruteForceLeast(Graph graph, String pinnedOp) {
        Subgraph subgraph = graph.subgraphs().get(0);
        long[] least = {Long.MAX_VALUE};
        permute(subgraph, new ArrayList<>(), new boolean[subgraph.nodes().size()], pinnedOp, order -> {
            least[0] = Math.min(least[0], LowerBound.of(MemoryOrder.reorder(subgraph, order), graph.options()));
        });
        return least[0];
    }

    private static void permute(Subgraph subgraph, List<Integer> prefix, boolean[] used, String pinnedOp,
                                java.util.function.Consumer<int[]> visit) {
        int n = used.length;
        if (prefix.size() == n) {
            visit.accept(prefix.stream().mapToInt(Integer::intValue).toArray());
            return;
        }
        for (int v = 0; v < n; v++) {
            if (!used[v] && canRunNext(subgraph, used, v, pinnedOp)) {
                used[v] = true;
                prefix.add(v);
                permute(subgraph, prefix, used, pinnedOp, visit);
                prefix.remove(prefix.size() - 1);
                used[v] = false;
            }
        }
    }

    private static boolean canRunNext(Subgraph subgraph, boolean[] used, int v, String pinnedOp) {
        Node node = subgraph.nodes().get(v);
        for (int u = 0; u < used.length; u++) {
            Node other = subgraph.nodes().get(u);
            boolean feeds = Arrays.stream(other.outputs()).anyMatch(t -> Arrays.stream(node.inputs()).anyMatch(i -> i == t));
            boolean pinned = pinnedOp != null && u < v && node.op().equals(pinnedOp) && other.op().equals(pinnedOp);
            if (!used[u] && (feeds || pinned)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(int[] order, int node) {
        return IntStream.range(0, order.length).filter(k -> order[k] == node).findFirst().orElseThrow();
    }
}
