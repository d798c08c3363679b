package dev.tflitearena.plan.order;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.LowerBound;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A topological order of the primary subgraph's nodes that lowers its rw arena's {@link LowerBound}: the
 * exact search's where it visits at most {@link #MAX_STATES} sets of nodes, otherwise the best of the
 * {@link Portfolio}. Every order is measured by the lower bound of the reordered subgraph, and the model's own
 * is kept unless another is strictly lower. Nodes that touch state keep their relative order
 * ({@link Precedence}); the other subgraphs, bodies and branches of control flow, are left as they are.
 */
public final class MemoryOrder {
    /** The sets of nodes the exact search may visit before it gives way to the portfolio. */
    public static final int MAX_STATES = 1_000_000;
    public static final String EXACT = "exact";
    public static final String PORTFOLIO = "portfolio";

    /**
     * @param graph          the graph with the primary subgraph's nodes in {@code order}
     * @param order          the primary subgraph's nodes, by their position in the model's order
     * @param search         {@value #EXACT} when the order is proven of least bound, else {@value #PORTFOLIO}
     * @param chosen         which order won: the exact search's, or the portfolio's name for it
     * @param states         the sets of nodes the exact search visited (0 when it did not run)
     * @param nodesWithChoice the nodes some other node could run before or after
     * @param postponed      of those, the nodes the exact search ran just before their first other successor,
     *                       as is best for a node that frees nothing and follows only such nodes (0 when the
     *                       search did not run)
     * @param boundBefore    the lower bound in the model's order
     * @param boundAfter     the lower bound in {@code order}
     */
    public record Result(Graph graph, int[] order, String search, String chosen, int states, int nodesWithChoice,
                         int postponed, long boundBefore, long boundAfter) {
        /** Whether the order differs from the model's. */
        public boolean reordered() {
            for (int k = 0; k < order.length; k++) {
                if (order[k] != k) {
                    return true;
                }
            }
            return false;
        }

        /** One line for people: the search, the nodes with a choice, the bound before and after. */
        public String summary() {
            return String.format(Locale.ROOT,
                    "order memory (%s, %s%s): %d of %d ops had a choice%s, lower bound %d -> %d bytes (%+.1f%%)",
                    search, chosen, states == 0 ? "" : ", " + states + " states", nodesWithChoice, order.length,
                    postponed == 0 ? "" : " (" + postponed + " that free nothing run just before their first consumer)",
                    boundBefore, boundAfter, LowerBound.gap(boundAfter, boundBefore) * 100);
        }
    }

    private MemoryOrder() {
    }

    public static Result of(Graph graph) {
        return of(graph, MAX_STATES);
    }

    static Result of(Graph graph, int maxStates) {
        Subgraph primary = graph.subgraphs().get(0);
        Graph.Options options = graph.options();
        Precedence precedence = Precedence.of(primary);
        LiveBytes cost = LiveBytes.of(primary, options);
        int withChoice = precedence.nodesWithChoice();
        long before = LowerBound.of(primary, options);
        String chosen = Portfolio.MODEL;
        int[] best = null;
        long bound = before;
        for (Map.Entry<String, int[]> candidate : Portfolio.orders(precedence, cost).entrySet()) {
            long candidateBound = LowerBound.of(reorder(primary, candidate.getValue()), options);
            if (best == null || candidateBound < bound) {
                chosen = candidate.getKey();
                best = candidate.getValue();
                bound = candidateBound;
            }
        }
        String search = PORTFOLIO;
        int states = 0;
        int postponed = 0;
        if (withChoice == 0) {
            search = EXACT;
        } else if (cost.matchesLowerBound()) {
            ExactSearch.Outcome outcome = ExactSearch.run(precedence, cost, bound, maxStates);
            states = outcome.states();
            postponed = outcome.postponed();
            if (outcome.complete()) {
                search = EXACT;
                if (outcome.order() != null) {
                    long exactBound = LowerBound.of(reorder(primary, outcome.order()), options);
                    if (exactBound != outcome.peak()) {
                        throw new IllegalStateException("the exact search's order has a lower bound of " + exactBound
                                + " bytes, not the " + outcome.peak() + " it counted");
                    }
                    chosen = EXACT;
                    best = outcome.order();
                    bound = exactBound;
                }
            }
        }
        List<Subgraph> subgraphs = new ArrayList<>(graph.subgraphs());
        subgraphs.set(0, reorder(primary, best));
        return new Result(new Graph(options, subgraphs), best, search, chosen, states, withChoice, postponed, before,
                bound);
    }

    /** The subgraph with its nodes in {@code order}: position k runs the node the model runs at order[k]. */
    public static Subgraph reorder(Subgraph subgraph, int[] order) {
        int n = subgraph.nodes().size();
        boolean[] seen = new boolean[n];
        for (int v : order) {
            if (v < 0 || v >= n || seen[v]) {
                throw new IllegalArgumentException("subgraph " + subgraph.index() + ": an order must name each of its "
                        + n + " nodes once; got " + Arrays.toString(order));
            }
            seen[v] = true;
        }
        if (order.length != n) {
            throw new IllegalArgumentException("subgraph " + subgraph.index() + ": an order must name each of its "
                    + n + " nodes once; got " + order.length);
        }
        List<Node> nodes = new ArrayList<>(order.length);
        for (int v : order) {
            nodes.add(subgraph.nodes().get(v));
        }
        return new Subgraph(subgraph.index(), subgraph.name(), subgraph.tensors(), nodes, subgraph.inputs(),
                subgraph.outputs(), subgraph.variables());
    }
}
