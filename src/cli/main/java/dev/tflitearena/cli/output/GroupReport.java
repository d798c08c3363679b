package dev.tflitearena.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.group.GroupPlan;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** A group plan as plan-group and run-group print it: the one arena against the models' arenas alone. */
public final class GroupReport {
    private GroupReport() {
    }

    /** The group's arena as a multiple of the largest model's alone. */
    static double ratioToLargest(GroupPlan plan) {
        return plan.largestAloneBytes() == 0 ? 1 : (double) plan.arenaBytes() / plan.largestAloneBytes();
    }

    public static ObjectNode toJson(List<Path> models, GroupPlan plan) {
        ObjectNode root = Json.object();
        root.put("planner", plan.planner());
        root.put("arena_bytes", plan.arenaBytes());
        root.put("shared_arena_bytes", plan.sharedBytes());
        root.put("largest_alone_arena_bytes", plan.largestAloneBytes());
        root.put("sum_alone_arena_bytes", plan.sumAloneBytes());
        root.put("ratio_to_largest", ratioToLargest(plan));
        root.put("optimal_proven", plan.provenOptimal());
        ArrayNode list = root.putArray("models");
        for (int m = 0; m < models.size(); m++) {
            ObjectNode model = list.addObject();
            model.put("model", models.get(m).toString());
            model.put("arena_bytes", plan.aloneBytes().get(m));
            model.put("persistent_bytes", persistentBytes(plan.models().get(m)));
        }
        return root;
    }

    public static void printText(PrintWriter out, List<Path> models, GroupPlan plan) {
        out.printf(Locale.ROOT, "%d models, planner %s: one rw arena of %d bytes, %.3fx the largest alone (%d bytes); "
                        + "in an arena each, %d bytes%n", models.size(), plan.planner(), plan.arenaBytes(),
                ratioToLargest(plan), plan.largestAloneBytes(), plan.sumAloneBytes());
        TextTable table = new TextTable("model", "arena_bytes_alone", "persistent_bytes").leftAlign(0);
        for (int m = 0; m < models.size(); m++) {
            table.add(models.get(m), plan.aloneBytes().get(m), persistentBytes(plan.models().get(m)));
        }
        table.print(out);
    }

    /** Persistent arenas stay per model: the same in the group as alone. */
    private static long persistentBytes(Plan plan) {
        return plan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum();
    }
}
