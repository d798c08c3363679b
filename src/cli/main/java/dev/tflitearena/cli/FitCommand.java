package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.GraphSource.Kind;
import dev.tflitearena.cli.options.FitOptions;
import dev.tflitearena.cli.options.ModelPlanningOptions;
import dev.tflitearena.cli.options.OrderedGraph;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.plan.search.WithinBudget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Whether a graph's tensors fit in a number of bytes: a model's or graph JSON's within "
                + "--budget, a MiniMalloc buffer set's (.csv) within --capacity. Prints the plan that fits, or why "
                + "none does. 'plan --budget' and 'plan --capacity' are the same. Exit status 0 when it fits, 1 "
                + "when not.")
final class FitCommand implements Callable<Integer> {
    @Parameters(paramLabel = "GRAPH.json|MODEL.tflite|FILE.csv")
    Path input;

    @Mixin
    FitOptions fit;

    @Mixin
    ModelPlanningOptions options;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        if (!fit.given()) {
            throw new IllegalArgumentException("fit needs --budget BYTES (a model or graph) or --capacity BYTES (a "
                    + "buffer set)");
        }
        return fit(input, fit, options, output);
    }

    /** Exit status 0 when the input fits, {@link CompareCommand#EXIT_DIFFERENT} when not. */
    static int fit(Path input, FitOptions fit, ModelPlanningOptions options, Output output) throws IOException {
        if ((fit.capacity != null && fit.capacity < 0) || (fit.budget != null && fit.budget < 0)) {
            throw new IllegalArgumentException("--capacity and --budget take a number of bytes, not negative");
        }
        if (Kind.of(input, Kind.MODEL, Kind.GRAPH_JSON, Kind.BUFFER_CSV) == Kind.BUFFER_CSV) {
            options.refuseForBuffers(input);
            if (fit.budget != null) {
                throw new IllegalArgumentException("--budget is for a model or graph; for a buffer set give "
                        + "--capacity BYTES with --planner optimal");
            }
            return fitBuffers(input, fit.capacity, options, output);
        }
        if (fit.capacity != null) {
            throw new IllegalArgumentException("--capacity is for a buffer set (.csv); for a model or graph "
                    + "give --budget BYTES");
        }
        return planWithinBudget(input, fit.budget, options, output);
    }

    private static int planWithinBudget(Path input, long budget, ModelPlanningOptions options, Output output)
            throws IOException {
        Planner strategy = options.planner(input);
        OrderedGraph read = options.read(input);
        Graph graph = read.graph();
        List<WithinBudget.Outcome> outcomes = graph.subgraphs().stream()
                .map(s -> WithinBudget.of(s, graph.options(), strategy, budget, options.timeLimit.duration())).toList();
        boolean within = outcomes.stream().allMatch(o -> o.verdict() == WithinBudget.Verdict.FITS);
        // Named for the search when it placed any subgraph.
        String name = outcomes.stream().anyMatch(WithinBudget.Outcome::searched) ? OptimalPlacer.NAME : strategy.name();
        Plan plan = within ? new Plan(name, outcomes.stream().map(WithinBudget.Outcome::plan).toList()) : null;
        if (plan != null) {
            PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
        }
        output.print(() -> {
            ObjectNode root = plan != null ? PlanReport.toJson(input, graph, plan) : Json.object();
            root.put("budget_bytes", budget);
            root.put("within_budget", within);
            ArrayNode list = root.putArray("budget");
            for (WithinBudget.Outcome o : outcomes) {
                budgetJson(list.addObject(), graph.subgraphs().get(o.subgraph()), o);
            }
            return root;
        }, out -> {
            if (read.ordered() != null) {
                out.println(read.ordered().summary());
            }
            for (WithinBudget.Outcome o : outcomes) {
                printBudget(out, graph.subgraphs().get(o.subgraph()), budget, o);
            }
            if (plan != null) {
                out.println();
                PlanReport.printText(out, graph, plan);
            }
        });
        return within ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private static void budgetJson(ObjectNode j, Subgraph subgraph, WithinBudget.Outcome o) {
        j.put("subgraph", o.subgraph());
        j.put("verdict", o.verdict().name().toLowerCase());
        j.put("searched", o.searched());
        j.put("search_millis", o.millis());
        j.put("lower_bound_bytes", o.lowerBound());
        if (o.plan() != null) {
            j.put("arena_bytes", o.plan().arenaBytes());
        }
        j.put("peak_node", o.peak().step());
        ArrayNode live = j.putArray("peak_tensors");
        for (BufferSet.Buffer b : o.peak().live()) {
            ObjectNode t = live.addObject();
            t.put("index", b.id());
            t.put("name", subgraph.tensor(b.id()).name());
            t.put("bytes", b.size());
        }
    }

    private static void printBudget(PrintWriter out, Subgraph subgraph, long budget, WithinBudget.Outcome o) {
        String head = "subgraph " + o.subgraph() + ": ";
        switch (o.verdict()) {
            case FITS -> out.printf("%swithin the budget of %d bytes: arena %d bytes%s%n", head, budget,
                    o.plan().arenaBytes(), o.searched() ? ", found by the exact search in " + o.millis() + " ms" : "");
            case BOUND_OVER_BUDGET -> {
                out.printf("%sno plan within %d bytes: the lower bound is %d bytes, live together at node %d:%n",
                        head, budget, o.lowerBound(), o.peak().step());
                TextTable table = new TextTable("tensor", "bytes", "name").leftAlign(2);
                for (BufferSet.Buffer b : o.peak().live()) {
                    table.add(b.id(), b.size(), subgraph.tensor(b.id()).name());
                }
                table.print(out);
            }
            case DOES_NOT_FIT -> out.printf("%sno plan within %d bytes: the exact search proved it in %d ms "
                    + "(lower bound %d bytes)%n", head, budget, o.millis(), o.lowerBound());
            case TIMED_OUT -> out.printf("%sno plan within %d bytes found in %d ms, nor proved impossible (lower "
                    + "bound %d bytes); a longer --time-limit may settle it%n", head, budget, o.millis(), o.lowerBound());
        }
    }

    private static int fitBuffers(Path input, long capacity, ModelPlanningOptions options, Output output)
            throws IOException {
        if (!options.planner.equals(OptimalPlacer.NAME)) {
            throw new IllegalArgumentException("--capacity asks the exact search: give --planner " + OptimalPlacer.NAME);
        }
        BufferSet buffers = MinimallocCsv.read(input);
        OptimalPlacer.Fit fit = new OptimalPlacer(options.timeLimit.duration()).fit(buffers, capacity);
        Placer.Solution solution = fit.offsets() == null ? null : new Placer.Solution(fit.offsets(), false);
        if (solution != null) {
            buffers.validate(solution.offsets());
        }
        BufferSet.Peak peak = buffers.peak();
        output.print(() -> {
            ObjectNode root = solution != null ? PlanReport.toJson(input, buffers, OptimalPlacer.NAME, solution)
                    : Json.object();
            root.put("input", input.toString());
            root.put("capacity_bytes", capacity);
            root.put("verdict", fit.verdict().name().toLowerCase());
            root.put("millis", fit.millis());
            root.put("lower_bound_bytes", peak.bytes());
            return root;
        }, out -> {
            switch (fit.verdict()) {
                case FITS -> out.printf("%s: fits in %d bytes (arena %d), found in %d ms%n", input, capacity,
                        buffers.arenaBytes(solution.offsets()), fit.millis());
                case DOES_NOT_FIT -> out.printf("%s: does not fit in %d bytes: %s%n", input, capacity,
                        peak.bytes() > capacity ? "the lower bound is " + peak.bytes() + " bytes, " + peak.live().size()
                                + " buffers live together at " + (buffers.clock() == null ? "step " + peak.step()
                                : "time " + buffers.clock().get(peak.step()))
                                : "the exact search proved it in " + fit.millis() + " ms (lower bound " + peak.bytes()
                                + " bytes)");
                case TIMED_OUT -> out.printf("%s: no placement within %d bytes found in %d ms, nor proved impossible "
                        + "(lower bound %d bytes); a longer --time-limit may settle it%n", input, capacity, fit.millis(),
                        peak.bytes());
            }
            if (solution != null) {
                PlanReport.printText(out, input, buffers, OptimalPlacer.NAME, solution);
            }
        });
        return fit.verdict() == OptimalPlacer.Verdict.FITS ? 0 : CompareCommand.EXIT_DIFFERENT;
    }
}
