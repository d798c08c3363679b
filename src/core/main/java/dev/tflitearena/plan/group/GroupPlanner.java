package dev.tflitearena.plan.group;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.PlacerPlanner;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plans models that run one after another, never two at once, on one rw arena. Their primary subgraphs go
 * on one timeline, model after model, each tensor live only within its model's span under TFLite's own
 * lifetimes, so a placer puts one model's activations on another's bytes. The exception is a model's rw
 * variables, which must keep their values from one run to the next: they live the whole timeline. A
 * model's outputs therefore stay valid until the next model of the group runs (its first act, writing its
 * inputs, may overwrite them), and so do its inputs; no run reads what another model left, since each
 * writes every input it reads. Persistent arenas and the other subgraphs (control flow bodies) stay per model, planned alone.
 */
public final class GroupPlanner {
    private GroupPlanner() {
    }

    /** Places the group with the placer named {@code planner}; everything else is planned as that planner does. */
    public static GroupPlan plan(List<Graph> graphs, String planner, Duration timeLimit) {
        if (graphs.isEmpty()) {
            throw new IllegalArgumentException("a group needs at least one model");
        }
        Placer placer = Planners.placerByName(planner, timeLimit);
        Planner alone = Planners.byName(planner, timeLimit);
        Timeline timeline = Timeline.of(graphs);
        Placer.Solution solution = placer.place(timeline.buffers());
        long[] placed = solution.offsets();
        timeline.buffers().validate(placed);
        long shared = timeline.buffers().arenaBytes(placed);
        List<Plan> models = new ArrayList<>();
        List<Long> aloneBytes = new ArrayList<>();
        for (int m = 0; m < graphs.size(); m++) {
            Graph graph = graphs.get(m);
            Subgraph primary = graph.subgraphs().get(0);
            long[] offset = new long[primary.tensors().size()];
            Arrays.fill(offset, -1);
            for (int i = 0; i < placed.length; i++) {
                if (timeline.model()[i] == m) {
                    offset[timeline.buffers().buffers().get(i).id()] = placed[i];
                }
            }
            Plan own = alone.plan(graph);
            List<SubgraphPlan> subgraphs = new ArrayList<>(own.subgraphs());
            subgraphs.set(0, PlacerPlanner.withRwOffsets(primary, new TflitePlanner().plan(primary, graph.options()),
                    offset, shared, false));
            models.add(new Plan(placer.name(), subgraphs));
            aloneBytes.add(own.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum());
        }
        boolean proven = solution.provenOptimal() || shared == timeline.buffers().lowerBound();
        return new GroupPlan(placer.name(), shared, models, aloneBytes, proven);
    }

    /**
     * Throws {@link InvalidPlanException} naming the first problem: each model's plan must be valid for its
     * graph (with the shared region as its primary rw arena), and no two tensors of the timeline that live
     * together may share a byte, whichever models they belong to.
     */
    public static void validate(List<Graph> graphs, GroupPlan plan, long requiredAlignment) {
        if (plan.models().size() != graphs.size()) {
            throw new InvalidPlanException("the group plan covers " + plan.models().size() + " models, the group has "
                    + graphs.size());
        }
        for (int m = 0; m < graphs.size(); m++) {
            SubgraphPlan primary = plan.models().get(m).subgraphs().get(0);
            if (primary.arenaBytes() != plan.sharedBytes()) {
                throw new InvalidPlanException("model " + m + ": its primary rw arena has " + primary.arenaBytes()
                        + " bytes, the shared region " + plan.sharedBytes());
            }
            try {
                PlanValidator.validateInGroup(graphs.get(m), plan.models().get(m), requiredAlignment);
            } catch (InvalidPlanException e) {
                throw new InvalidPlanException("model " + m + ": " + e.getMessage());
            }
        }
        Timeline timeline = Timeline.of(graphs);
        List<long[]> offsetByTensor = new ArrayList<>();
        for (int m = 0; m < graphs.size(); m++) {
            long[] offset = new long[graphs.get(m).subgraphs().get(0).tensors().size()];
            for (Placement p : plan.models().get(m).subgraphs().get(0).placements()) {
                offset[p.tensor()] = p.offset();
            }
            offsetByTensor.add(offset);
        }
        timeline.checkAcrossModels(graphs, offsetByTensor);
    }

    /**
     * The models' primary rw buffers on one timeline. A buffer's id is its tensor in its model's primary
     * subgraph; {@code model} says whose it is, by buffer position.
     */
    private record Timeline(BufferSet buffers, int[] model) {

        static Timeline of(List<Graph> graphs) {
            List<BufferSet> sets = graphs.stream().map(g -> BufferSet.of(g.subgraphs().get(0), g.options())).toList();
            int steps = sets.stream().mapToInt(BufferSet::steps).sum();
            int alignment = 1;
            for (Graph graph : graphs) {
                alignment = lcm(alignment, graph.options().tensorAlignment());
            }
            List<BufferSet.Buffer> buffers = new ArrayList<>();
            List<Integer> owners = new ArrayList<>();
            int start = 0;
            for (int m = 0; m < graphs.size(); m++) {
                Subgraph primary = graphs.get(m).subgraphs().get(0);
                for (BufferSet.Buffer b : sets.get(m).buffers()) {
                    boolean variable = primary.tensor(b.id()).allocation() == Allocation.ARENA_RW
                            && Arrays.stream(primary.variables()).anyMatch(v -> v == b.id());
                    buffers.add(variable ? new BufferSet.Buffer(b.id(), b.size(), 0, steps - 1)
                            : new BufferSet.Buffer(b.id(), b.size(), start + b.first(), start + b.last()));
                    owners.add(m);
                }
                start += sets.get(m).steps();
            }
            return new Timeline(new BufferSet(buffers, steps, alignment),
                    owners.stream().mapToInt(Integer::intValue).toArray());
        }

        /**
         * Refuses two buffers of different models that live at the same step and share a byte; each model's
         * own buffers are its validator's to check.
         */
        void checkAcrossModels(List<Graph> graphs, List<long[]> offsetByTensor) {
            List<BufferSet.Buffer> list = buffers.buffers();
            for (int i = 0; i < list.size(); i++) {
                BufferSet.Buffer a = list.get(i);
                long aStart = offsetByTensor.get(model[i])[a.id()];
                for (int j = i + 1; j < list.size(); j++) {
                    BufferSet.Buffer b = list.get(j);
                    long bStart = offsetByTensor.get(model[j])[b.id()];
                    if (model[i] != model[j] && a.overlapsInTime(b) && aStart < bStart + b.size()
                            && bStart < aStart + a.size()) {
                        throw new InvalidPlanException("the group's timeline: " + describe(graphs, i, aStart)
                                + " and " + describe(graphs, j, bStart) + " share memory while both live");
                    }
                }
            }
        }

        private String describe(List<Graph> graphs, int position, long offset) {
            BufferSet.Buffer b = buffers.buffers().get(position);
            String name = graphs.get(model[position]).subgraphs().get(0).tensor(b.id()).name();
            return "model " + model[position] + ", tensor " + b.id() + (name.isEmpty() ? "" : " (" + name + ")")
                    + " at bytes " + offset + ".." + (offset + b.size()) + ", live at steps " + b.first() + ".."
                    + b.last();
        }

        private static int lcm(int a, int b) {
            int x = a;
            int y = b;
            while (y != 0) {
                int r = x % y;
                x = y;
                y = r;
            }
            return a / x * b;
        }
    }
}
