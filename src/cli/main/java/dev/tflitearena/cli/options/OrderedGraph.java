package dev.tflitearena.cli.options;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.order.MemoryOrder;

/**
 * A model or graph JSON read as a graph under the rules asked for ({@link GraphOptions}); with --order memory its
 * primary subgraph's ops in the memory order, and what the order did ({@code ordered}, else null).
 */
public record OrderedGraph(Graph graph, MemoryOrder.Result ordered) {
    /** What the memory order changed, for JSON. */
    public static ObjectNode orderJson(MemoryOrder.Result ordered) {
        ObjectNode o = Json.object();
        o.put("search", ordered.search());
        o.put("chosen", ordered.chosen());
        o.put("states", ordered.states());
        o.put("ops", ordered.order().length);
        o.put("ops_with_choice", ordered.nodesWithChoice());
        o.put("ops_postponed", ordered.postponed());
        o.put("lower_bound_before_bytes", ordered.boundBefore());
        o.put("lower_bound_after_bytes", ordered.boundAfter());
        o.put("reordered", ordered.reordered());
        ArrayNode nodes = o.putArray("node_order");
        for (int v : ordered.order()) {
            nodes.add(v);
        }
        return o;
    }
}
