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
 * An offline plan that does not hold ({@link TflmAllocations#check}) is refused where it would be kept, and
 * reported ({@code offlineProblem}) where it would not.
 */
public record TflmPlanView(Path input, TflmAllocations allocations, String planner, long[] offsets, Map<Integer, Long> kept,
                           String offlineProblem) {

    public static TflmPlanView of(Path input, TflmAllocations allocations, Placer placer) {
        Optional<OfflineMemoryAllocation> entry = OfflineMemoryAllocation.of(allocations.model());
        BufferSet buffers = allocations.buffers();
        Map<Integer, Long> offline = Map.of();
        String problem = null;
        if (entry.isPresent()) {
            offline = allocations.offline(entry.get());
            try {
                allocations.check(entry.get());
            } catch (InvalidPlanException e) {
                problem = e.getMessage();
            }
        }
        if (entry.isPresent() && placer.name().equals(TflmLinearPlacer.NAME)) {
            throw new IllegalArgumentException(input + " holds an offline plan (" + OfflineMemoryAllocation.NAME
                    + "), which TFLM's LinearMemoryPlanner refuses; " + TflmGreedyPlacer.NAME + " keeps it");
        }
        Map<Integer, Long> kept = placer.name().equals(TflmGreedyPlacer.NAME) ? offline : Map.of();
        if (!kept.isEmpty()) {
            placer = new TflmGreedyPlacer(kept);
        }
        if (problem != null && !kept.isEmpty()) {
            throw new InvalidPlanException(input + ": the model's offline plan does not hold: " + problem + " (TFLM "
                    + "would run it as given; 'bake --for tflm --replace' writes a new one)");
        }
        long[] offsets = placer.place(buffers).offsets();
        buffers.validate(offsets, allocations::describe);
        return new TflmPlanView(input, allocations, placer.name(), offsets, kept, problem);
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
        if (offlineProblem != null) {
            root.put("offline_plan_problem", offlineProblem);
        }
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
        if (offlineProblem != null) {
            out.println("the model's offline plan, not used here, does not hold: " + offlineProblem);
        }
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
