package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.Planners;
import dev.tflitearena.plan.SubgraphPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plans a graph's tensor memory: per subgraph and tensor, its offset, bytes, and first and "
                + "last node; the arena and persistent sizes. A .tflite model is read through the native "
                + "interpreter (op temporaries included); any other file as graph JSON.")
final class PlanCommand implements Callable<Integer> {
    @Parameters(paramLabel = "GRAPH.json|MODEL.tflite")
    Path input;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The placement strategy (default: ${DEFAULT-VALUE}).")
    String planner;


    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    Output output;

    @Override
    public Integer call() throws Exception {
        Planner strategy = Planners.byName(planner);
        Graph graph = GraphSource.read(input, nativeOptions.settings());
        Plan plan = strategy.plan(graph);
        output.print(() -> toJson(graph, plan), out -> printText(out, graph, plan));
        return 0;
    }

    private ObjectNode toJson(Graph graph, Plan plan) {
        ObjectNode root = Json.object();
        root.put("planner", plan.planner());
        root.put("input", input.toString());
        ArrayNode subgraphs = root.putArray("subgraphs");
        for (SubgraphPlan sp : plan.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(sp.subgraph());
            ObjectNode s = subgraphs.addObject();
            s.put("index", sp.subgraph());
            s.put("arena_bytes", sp.arenaBytes());
            s.put("persistent_bytes", sp.persistentBytes());
            ArrayNode tensors = s.putArray("tensors");
            for (Placement p : sp.placements()) {
                ObjectNode t = tensors.addObject();
                t.put("index", p.tensor());
                t.put("name", subgraph.tensor(p.tensor()).name());
                Json.putOffset(t, "offset", p.offset());
                t.put("bytes", p.bytes());
                Json.putOffset(t, "first", p.first());
                Json.putOffset(t, "last", p.last());
                t.put("arena", p.arena().jsonName());
                if (p.aliasOf() >= 0) {
                    t.put("alias_of", p.aliasOf());
                }
            }
        }
        return root;
    }

    private void printText(PrintWriter out, Graph graph, Plan plan) {
        for (SubgraphPlan sp : plan.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(sp.subgraph());
            out.printf("subgraph %d%s: planner %s, arena %d bytes, persistent %d bytes%n", sp.subgraph(),
                    subgraph.name().isEmpty() ? "" : " (" + subgraph.name() + ")", plan.planner(), sp.arenaBytes(),
                    sp.persistentBytes());
            TextTable table = new TextTable("tensor", "arena", "offset", "bytes", "first", "last", "alias_of", "name")
                    .leftAlign(1).leftAlign(7);
            for (Placement p : sp.placements()) {
                table.add(p.tensor(), p.arena().jsonName(), TextTable.orDash(p.offset()), p.bytes(),
                        TextTable.orDash(p.first()), TextTable.orDash(p.last()), TextTable.orDash(p.aliasOf()),
                        subgraph.tensor(p.tensor()).name());
            }
            table.print(out);
            out.println();
        }
    }
}
