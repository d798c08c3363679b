package dev.tflitearena.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/** A plan as 'plan' and 'fit' print it: a graph's, per subgraph and tensor, or a buffer set's, per buffer. */
public final class PlanReport {
    /** How the relaxed rule for graph inputs (--release-inputs) is named where a figure depends on it. */
    public static final String RELEASE_INPUTS = "graph inputs released after their last consumer";

    private PlanReport() {
    }

    public static String percent(double gap) {
        return String.format(Locale.ROOT, "%.1f%%", gap * 100);
    }

    public static ObjectNode toJson(Path input, Graph graph, Plan plan) {
        ObjectNode root = Json.object();
        root.put("planner", plan.planner());
        root.put("input", input.toString());
        root.put("release_inputs", graph.options().releaseInputs());
        ArrayNode subgraphs = root.putArray("subgraphs");
        for (SubgraphPlan sp : plan.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(sp.subgraph());
            long bound = LowerBound.of(subgraph, graph.options());
            ObjectNode s = subgraphs.addObject();
            s.put("index", sp.subgraph());
            s.put("arena_bytes", sp.arenaBytes());
            s.put("persistent_bytes", sp.persistentBytes());
            s.put("lower_bound_bytes", bound);
            s.put("gap", LowerBound.gap(sp.arenaBytes(), bound));
            s.put("optimal_proven", sp.provenOptimal() || sp.arenaBytes() == bound);
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

    public static void printText(PrintWriter out, Graph graph, Plan plan) {
        if (graph.options().releaseInputs()) {
            out.println(RELEASE_INPUTS);
        }
        for (SubgraphPlan sp : plan.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(sp.subgraph());
            long bound = LowerBound.of(subgraph, graph.options());
            out.printf("subgraph %d%s: planner %s, arena %d bytes, lower bound %d, gap %s, persistent %d bytes%n",
                    sp.subgraph(), subgraph.name().isEmpty() ? "" : " (" + subgraph.name() + ")", plan.planner(),
                    sp.arenaBytes(), bound, percent(LowerBound.gap(sp.arenaBytes(), bound)), sp.persistentBytes());
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

    public static ObjectNode toJson(Path input, BufferSet buffers, String name, Placer.Solution solution) {
        long arena = buffers.arenaBytes(solution.offsets());
        long bound = buffers.lowerBound();
        ObjectNode root = Json.object();
        root.put("planner", name);
        root.put("input", input.toString());
        root.put("arena_bytes", arena);
        root.put("lower_bound_bytes", bound);
        root.put("gap", LowerBound.gap(arena, bound));
        root.put("optimal_proven", solution.provenOptimal() || arena == bound);
        ArrayNode list = root.putArray("buffers");
        for (int i = 0; i < buffers.buffers().size(); i++) {
            BufferSet.Buffer b = buffers.buffers().get(i);
            ObjectNode j = list.addObject();
            j.put("id", b.id());
            j.put("offset", solution.offsets()[i]);
            j.put("size", b.size());
        }
        return root;
    }

    public static void printText(PrintWriter out, Path input, BufferSet buffers, String name, Placer.Solution solution) {
        long arena = buffers.arenaBytes(solution.offsets());
        long bound = buffers.lowerBound();
        out.printf("%s: planner %s, %d buffers, arena %d bytes, lower bound %d, gap %s%s%n", input, name,
                buffers.buffers().size(), arena, bound, percent(LowerBound.gap(arena, bound)),
                solution.provenOptimal() || arena == bound ? ", optimal" : "");
        TextTable table = new TextTable("id", "offset", "size", "first_step", "last_step");
        for (int i = 0; i < buffers.buffers().size(); i++) {
            BufferSet.Buffer b = buffers.buffers().get(i);
            table.add(b.id(), solution.offsets()[i], b.size(), b.first(), b.last());
        }
        table.print(out);
    }
}
