package dev.tflitearena.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.place.TflmLinearPlacer;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.tflm.TflmAllocations;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A model's plan under TFLM's rules ({@code plan --for tflm}): one arena for every subgraph, TFLM's lifetimes and
 * alignment. With an offline plan in the model, tflm-greedy keeps its offsets and places the rest around them, as
 * TFLM's allocator does; tflm-linear refuses it, as TFLM's LinearMemoryPlanner does; any other placer plans afresh.
 */
public record TflmPlanView(Path input, TflmAllocations allocations, String planner, long[] offsets, Map<Integer, Long> kept) {

    public static TflmPlanView of(Path input, TflmAllocations allocations, Placer placer) {
        Optional<OfflineMemoryAllocation> offline = OfflineMemoryAllocation.of(allocations.model());
        BufferSet buffers = allocations.buffers();
        Map<Integer, Long> kept = Map.of();
        if (offline.isPresent() && placer.name().equals(TflmLinearPlacer.NAME)) {
            throw new IllegalArgumentException(input + " holds an offline plan (" + OfflineMemoryAllocation.NAME
                    + "), which TFLM's LinearMemoryPlanner refuses; " + TflmGreedyPlacer.NAME + " keeps it");
        }
        if (offline.isPresent() && placer.name().equals(TflmGreedyPlacer.NAME)) {
            kept = allocations.offline(offline.get());
            placer = new TflmGreedyPlacer(kept);
        }
        long[] offsets = placer.place(buffers).offsets();
        try {
            buffers.validate(offsets, allocations::describe);
        } catch (InvalidPlanException e) {
            throw kept.isEmpty() ? e : new InvalidPlanException(input + ": the offline plan does not fit TFLM's "
                    + "lifetimes: " + e.getMessage());
        }
        return new TflmPlanView(input, allocations, placer.name(), offsets, kept);
    }

    public BufferSet buffers() {
        return allocations.buffers();
    }

    long arenaBytes() {
        return buffers().arenaBytes(offsets);
    }

    public PlanPicture picture() {
        return PlanPicture.of(input.getFileName() + " for TFLM, planner " + planner
                        + (kept.isEmpty() ? "" : " keeping " + countOffsets(kept.size())), buffers(), offsets,
                id -> label(allocations, id));
    }

    public ObjectNode toJson() {
        BufferSet buffers = buffers();
        long arena = arenaBytes();
        long bound = buffers.lowerBound();
        ObjectNode root = Json.object();
        root.put("planner", planner);
        root.put("input", input.toString());
        root.put("for", "tflm");
        root.put("alignment", allocations.alignment());
        root.put("arena_bytes", arena);
        root.put("lower_bound_bytes", bound);
        root.put("gap", LowerBound.gap(arena, bound));
        root.put("optimal_proven", arena == bound);
        root.put("offline_offsets_kept", kept.size());
        root.put("steps", buffers.steps());
        ArrayNode tensors = root.putArray("tensors");
        for (int i = 0; i < buffers.buffers().size(); i++) {
            BufferSet.Buffer b = buffers.buffers().get(i);
            TflmAllocations.Entry e = allocations.entries().get(b.id());
            ObjectNode t = tensors.addObject();
            t.put("subgraph", e.subgraph());
            t.put("index", e.tensor());
            t.put("name", e.name());
            t.put("offset", offsets[i]);
            t.put("bytes", e.bytes());
            t.put("size", b.size());
            t.put("first", b.first());
            t.put("last", b.last());
            t.put("offline", kept.containsKey(b.id()));
        }
        return root;
    }

    public void printText(PrintWriter out) {
        BufferSet buffers = buffers();
        long arena = arenaBytes();
        long bound = buffers.lowerBound();
        out.printf("%s for TFLM (alignment %d, %s on one timeline of %d steps): planner %s, arena %d bytes, "
                        + "lower bound %d, gap %s%s%n", input, allocations.alignment(),
                subgraphs(), buffers.steps(), planner, arena, bound,
                PlanReport.percent(LowerBound.gap(arena, bound)),
                kept.isEmpty() ? "" : "; " + countOffsets(kept.size()) + " kept from the model's offline plan");
        TextTable table = new TextTable("subgraph", "tensor", "offset", "bytes", "size", "first", "last", "offline",
                "name").leftAlign(8);
        for (int i = 0; i < buffers.buffers().size(); i++) {
            BufferSet.Buffer b = buffers.buffers().get(i);
            TflmAllocations.Entry e = allocations.entries().get(b.id());
            table.add(e.subgraph(), e.tensor(), offsets[i], e.bytes(), b.size(), b.first(), b.last(),
                    kept.containsKey(b.id()) ? "yes" : "-", e.name());
        }
        table.print(out);
    }

    /** "1 subgraph", "3 subgraphs". */
    private String subgraphs() {
        int n = allocations.model().subgraphs().size();
        return n + (n == 1 ? " subgraph" : " subgraphs");
    }

    /** "N offsets", for the captions. */
    private static String countOffsets(int n) {
        return n + (n == 1 ? " offset" : " offsets");
    }

    /** A buffer's label in pictures: the tensor's name, after its subgraph's index when there are several. */
    public static String label(TflmAllocations allocations, int id) {
        TflmAllocations.Entry e = allocations.entries().get(id);
        return allocations.model().subgraphs().size() > 1 ? e.subgraph() + ":" + e.name() : e.name();
    }
}
