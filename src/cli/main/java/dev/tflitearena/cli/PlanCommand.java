package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.NativeRelease;
import dev.tflitearena.cli.GraphSource.Kind;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.BakedPlanner;
import dev.tflitearena.plan.baked.PlanFingerprint;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;
import dev.tflitearena.plan.place.MinimallocProblem;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.PlacerPlanner;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.place.TflmGreedyPlanner;
import dev.tflitearena.plan.place.TflmLinearPlacer;
import dev.tflitearena.plan.render.AsciiRenderer;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.render.SvgRenderer;
import dev.tflitearena.plan.render.TflmPrintout;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.plan.search.WithinBudget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;

@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plans a graph's tensor memory: per subgraph and tensor, its offset, bytes, and first and "
                + "last node; the arena and persistent sizes, the lower bound and the gap to it. The extension "
                + "says what the file is: a .tflite model is read through the native interpreter (op temporaries "
                + "included), a .json as graph JSON, a .csv as a MiniMalloc buffer set (id,lower,upper,size, "
                + "optionally a fifth column offline: a buffer's offline-planned offset for tflm-greedy, -1 for "
                + "none); any other file is refused. Every plan is validated.")
final class PlanCommand implements Callable<Integer> {
    /** Columns of the terminal picture. */
    private static final int ASCII_COLUMNS = 100;

    @Parameters(paramLabel = "GRAPH.json|MODEL.tflite|FILE.csv")
    Path input;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The placement strategy: tflite, tflm-greedy, tflm-linear, greedy-by-size, "
                    + "greedy-by-breadth, best-of, optimal (default: ${DEFAULT-VALUE}; tflm-greedy with --for tflm). "
                    + "tflm-greedy keeps the offline offsets of a model's OfflineMemoryAllocation metadata or a "
                    + "CSV's offline column.")
    String planner;

    @Spec
    CommandSpec spec;

    @Mixin
    TimeLimitOption timeLimit;

    @Option(names = "--capacity", paramLabel = "BYTES", description = "For a buffer set (.csv), with --planner "
            + "optimal: only whether it fits in BYTES. Prints the plan when it does, the proof when it cannot (the "
            + "lower bound over BYTES, or the exact search run to its end), or that --time-limit ran out first; "
            + "exit status 0 when it fits, 1 when not.")
    Long capacity;

    @Option(names = "--budget", paramLabel = "BYTES", description = "For a model or graph: a plan whose rw arena "
            + "is within BYTES in every subgraph, under the rules in force (--release-inputs, --order). The "
            + "planner goes first; over the budget, the exact search looks for one within --time-limit. Prints "
            + "the plan, or why there is none: the lower bound over the budget with the node at the peak and "
            + "the tensors live there, or the search's proof; or that time ran out. Exit status 0 when within, "
            + "1 when not.")
    Long budget;

    @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the plan as an SVG picture in FILE, "
            + "whose directory must exist.")
    Path svg;

    @Option(names = "--ascii", description = "Also draw the plan as text, after the table.")
    boolean ascii;

    @Option(names = "--tflm-print", description = "Print the rw arena as TFLM's GreedyMemoryPlanner::PrintMemoryPlan "
            + "prints it, instead of the table: a line per buffer (its id the buffer's position, its size rounded up "
            + "to the alignment, as TFLM's allocator hands it over), then a line per step with the arena in 80 "
            + "columns; each subgraph of a model under a line naming it. Text only: not with --json.")
    boolean tflmPrint;

    @Option(names = "--export-buffers", paramLabel = "FILE", description = "Instead of planning, write the rw "
            + "arena of the subgraph of --subgraph as a placement problem for an outside planner: a .csv in "
            + "MiniMalloc's format (" + MinimallocProblem.HEADER + "; the id is the tensor's index in the subgraph, "
            + "[lower, upper) the nodes it is live at, the size rounded up to the tensor alignment, in-place "
            + "aliases left to their root), or a .json with the same buffers and their tensor names and bytes, the "
            + "alignment and the lower bound. Its solution comes back through --plan.")
    Path exportBuffers;

    @Option(names = "--subgraph", paramLabel = "N", description = "The subgraph --export-buffers writes (default: 0).")
    Integer subgraph;

    @Mixin
    PlanFileOption planFile;

    @Mixin
    OrderOption order;

    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    ReleaseInputsOption releaseInputs;

    @Mixin
    ForRuntimeOption forRuntime;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        if (svg != null) {
            WritablePath.checkFile(svg);
        }
        if ((capacity != null && capacity < 0) || (budget != null && budget < 0)) {
            throw new IllegalArgumentException("--capacity and --budget take a number of bytes, not negative");
        }
        if ((capacity != null || budget != null) && (exportBuffers != null || svg != null || ascii)) {
            throw new IllegalArgumentException("--capacity and --budget do not go with --export-buffers, --svg or "
                    + "--ascii");
        }
        if (subgraph != null && exportBuffers == null) {
            throw new IllegalArgumentException("--subgraph is for --export-buffers");
        }
        if (tflmPrint && (output.json || exportBuffers != null)) {
            throw new IllegalArgumentException("--tflm-print prints a plan as text: not with --json or --export-buffers");
        }
        if (exportBuffers != null && planFile.given()) {
            throw new IllegalArgumentException("--export-buffers writes a problem and --plan reads a solution: give one");
        }
        if (forRuntime.tflm()) {
            return planForTflm();
        }
        if (exportBuffers != null) {
            exportBuffers(subgraph == null ? 0 : subgraph);
            return 0;
        } else if (Kind.of(input, Kind.MODEL, Kind.GRAPH_JSON, Kind.BUFFER_CSV) == Kind.BUFFER_CSV) {
            if (planFile.given()) {
                throw new IllegalArgumentException("--plan places a model's tensors; " + input
                        + " is a bare buffer set");
            }
            if (order.value() != Order.MODEL) {
                throw new IllegalArgumentException(input + ": --order applies to a graph's ops; a buffer set has none");
            }
            if (budget != null) {
                throw new IllegalArgumentException("--budget is for a model or graph; for a buffer set give "
                        + "--capacity BYTES with --planner optimal");
            }
            return capacity != null ? fitBuffers(capacity) : planBuffers();
        } else {
            if (capacity != null) {
                throw new IllegalArgumentException("--capacity is for a buffer set (.csv); for a model or graph "
                        + "give --budget BYTES");
            }
            return budget != null ? planWithinBudget(budget) : planGraph();
        }
    }

    /** A model under TFLM's rules: pure Java, from the file alone. */
    private int planForTflm() throws IOException {
        if (planFile.given() || exportBuffers != null || capacity != null || budget != null || releaseInputs.on
                || order.value() != Order.MODEL) {
            throw new IllegalArgumentException("--for tflm follows TFLM's rules as they are: not with --plan, "
                    + "--export-buffers, --capacity, --budget, --release-inputs or --order");
        }
        boolean named = spec.commandLine().getParseResult().hasMatchedOption("--planner");
        Placer placer = Planners.placerByName(named ? planner : TflmGreedyPlacer.NAME, timeLimit.duration());
        TflmPlanView view = TflmPlanView.of(input, forRuntime.allocations(input), placer);
        print(view.picture(), view::toJson, out -> {
            if (tflmPrint) {
                out.print(TflmPrintout.of(view.buffers(), view.offsets()));
            } else {
                view.printText(out);
            }
        });
        return 0;
    }

    private int planGraph() throws IOException {
        Planner strategy = planFile.given() ? planFile.read() : strategy();
        OrderedGraph read = readGraph();
        Graph graph = read.graph();
        MemoryOrder.Result ordered = read.ordered();
        Plan plan = strategy.plan(graph);
        PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
        print(PlanPicture.of(graph, plan), () -> {
            ObjectNode root = toJson(graph, plan);
            if (ordered != null) {
                root.set("order", orderJson(ordered));
            }
            return root;
        }, out -> {
            if (ordered != null) {
                out.println(ordered.summary());
            }
            if (tflmPrint) {
                printTflm(out, graph, plan);
            } else {
                printText(out, graph, plan);
            }
        });
        return 0;
    }

    private int planWithinBudget(long budget) throws IOException {
        Planner strategy = planFile.given() ? planFile.read() : strategy();
        OrderedGraph read = readGraph();
        Graph graph = read.graph();
        List<WithinBudget.Outcome> outcomes = graph.subgraphs().stream()
                .map(s -> WithinBudget.of(s, graph.options(), strategy, budget, timeLimit.duration())).toList();
        boolean within = outcomes.stream().allMatch(o -> o.verdict() == WithinBudget.Verdict.FITS);
        // Named for the search when it placed any subgraph.
        String name = outcomes.stream().anyMatch(WithinBudget.Outcome::searched) ? OptimalPlacer.NAME : strategy.name();
        Plan plan = within ? new Plan(name, outcomes.stream().map(WithinBudget.Outcome::plan).toList()) : null;
        if (plan != null) {
            PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
        }
        output.print(() -> {
            ObjectNode root = plan != null ? toJson(graph, plan) : Json.object();
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
                printText(out, graph, plan);
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

    /**
     * The planner of --planner; for a model whose metadata holds TFLM's offline plan, tflm-greedy keeps its
     * offsets, and tflm-linear refuses them as TFLM's LinearMemoryPlanner does.
     */
    private Planner strategy() throws IOException {
        Planner named = Planners.byName(planner, timeLimit.duration());
        boolean tflm = planner.equals(TflmGreedyPlacer.NAME) || planner.equals(TflmLinearPlacer.NAME);
        if (Kind.of(input, Kind.MODEL, Kind.GRAPH_JSON) != Kind.MODEL) {
            return named;
        }
        if (!spec.commandLine().getParseResult().hasMatchedOption("--planner")) {
            return bakedOr(named);
        }
        if (!tflm) {
            return named;
        }
        TfliteModel model = TfliteFile.read(input);
        Optional<OfflineMemoryAllocation> offline;
        try {
            offline = OfflineMemoryAllocation.of(model);
        } catch (InvalidModelException e) {
            throw new InvalidModelException(input + ": " + e.getMessage());
        }
        if (offline.isEmpty()) {
            return named;
        }
        if (planner.equals(TflmLinearPlacer.NAME)) {
            throw new IllegalArgumentException(input + " holds an offline plan (" + OfflineMemoryAllocation.NAME
                    + "), which TFLM's LinearMemoryPlanner refuses; " + TflmGreedyPlacer.NAME + " keeps it");
        }
        return new TflmGreedyPlanner(offline.get().offsets());
    }

    /**
     * The model's baked plan when it has one made for this model, release and options (the first line says so),
     * else {@code otherwise}, saying on standard error why the baked plan is not used.
     */
    private Planner bakedOr(Planner otherwise) throws IOException {
        byte[] bytes = java.nio.file.Files.readAllBytes(input);
        Optional<byte[]> entry = TfliteFile.metadata(java.nio.ByteBuffer.wrap(bytes), BakedPlan.NAME);
        if (entry.isEmpty()) {
            return otherwise;
        }
        BakedPlan baked = BakedPlan.decode(entry.get(), input.toString());
        PlanFingerprint f = baked.fingerprint();
        List<String> differences = f.differences(f.madeFrom(java.nio.ByteBuffer.wrap(bytes)),
                NativeRelease.loaded().version(), releaseInputs.on, order.value().jsonName(), nativeOptions.xnnpack.on);
        if (!differences.isEmpty()) {
            spec.commandLine().getErr().println(input + ": its baked plan is not used, planning with "
                    + otherwise.name() + ": " + String.join("; ", differences));
            return otherwise;
        }
        return new BakedPlanner(baked);
    }

    /** Each subgraph's rw arena as TFLM prints its plan, under a line naming the subgraph. */
    private static void printTflm(PrintWriter out, Graph graph, Plan plan) {
        for (SubgraphPlan sp : plan.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(sp.subgraph());
            BufferSet buffers = BufferSet.of(subgraph, graph.options());
            out.printf("subgraph %d%s: planner %s, arena %d bytes%n", sp.subgraph(),
                    subgraph.name().isEmpty() ? "" : " (" + subgraph.name() + ")", plan.planner(), sp.arenaBytes());
            out.print(TflmPrintout.of(buffers, PlacerPlanner.rwOffsets(sp, buffers)));
        }
    }

    /** The input's graph; with --order memory its primary subgraph's ops in the memory order, and what it did. */
    private record OrderedGraph(Graph graph, MemoryOrder.Result ordered) {
    }

    private OrderedGraph readGraph() throws IOException {
        Graph read = releaseInputs.apply(GraphSource.read(input, nativeOptions.settings()));
        if (order.value() != Order.MEMORY) {
            return new OrderedGraph(read, null);
        }
        MemoryOrder.Result ordered = MemoryOrder.of(read);
        // The order was chosen on the graph under the rule, and its graph keeps the rule.
        return new OrderedGraph(GraphSource.inOrder(input, nativeOptions.settings(), ordered), ordered);
    }

    private void exportBuffers(int subgraph) throws IOException {
        String extension = exportBuffers.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        boolean csv = extension.endsWith(".csv");
        if (!csv && !extension.endsWith(".json")) {
            throw new IllegalArgumentException("--export-buffers " + exportBuffers + ": the extension says the "
                    + "format, .csv (MiniMalloc's) or .json");
        }
        WritablePath.checkFile(exportBuffers);
        Graph graph = readGraph().graph();
        if (subgraph < 0 || subgraph >= graph.subgraphs().size()) {
            throw new IllegalArgumentException("--subgraph " + subgraph + ": " + input + " has subgraphs 0.."
                    + (graph.subgraphs().size() - 1));
        }
        MinimallocProblem problem = MinimallocProblem.of(graph.subgraphs().get(subgraph), graph.options());
        WritablePath.write(exportBuffers, csv ? String.join("\n", problem.csvLines()) + "\n"
                : Json.print(toJson(problem)) + "\n");
        output.print(() -> {
            ObjectNode root = Json.object();
            root.put("input", input.toString());
            root.put("subgraph", subgraph);
            root.put("buffers", problem.rows().size());
            root.put("alignment", problem.alignment());
            root.put("lower_bound_bytes", problem.lowerBound());
            root.put("file", exportBuffers.toString());
            return root;
        }, out -> out.printf("%s, subgraph %d: %d buffers, alignment %d, lower bound %d bytes, written to %s%n", input,
                subgraph, problem.rows().size(), problem.alignment(), problem.lowerBound(), exportBuffers));
    }

    private ObjectNode toJson(MinimallocProblem problem) {
        ObjectNode root = Json.object();
        root.put("input", input.toString());
        root.put("subgraph", problem.subgraph().index());
        root.put("alignment", problem.alignment());
        root.put("lower_bound_bytes", problem.lowerBound());
        ArrayNode buffers = root.putArray("buffers");
        for (MinimallocProblem.Row r : problem.rows()) {
            ObjectNode b = buffers.addObject();
            b.put("id", r.id());
            b.put("lower", r.lower());
            b.put("upper", r.upper());
            b.put("size", r.size());
            b.put("bytes", r.bytes());
            b.put("name", problem.subgraph().tensor(r.id()).name());
        }
        return root;
    }

    private int planBuffers() throws IOException {
        releaseInputs.refuseForBuffers();
        Placer named = Planners.placerByName(planner, timeLimit.duration());
        MinimallocCsv.Read read = MinimallocCsv.readWithOffline(input);
        BufferSet buffers = read.buffers();
        if (!read.offlineOffsets().isEmpty() && !planner.equals(TflmGreedyPlacer.NAME)) {
            throw new IllegalArgumentException(input + ": its offline column places buffers, which only "
                    + TflmGreedyPlacer.NAME + " (TFLM's GreedyMemoryPlanner) does; give -1 throughout for " + planner);
        }
        Placer placer = read.offlineOffsets().isEmpty() ? named : new TflmGreedyPlacer(read.offlineOffsets());
        Placer.Solution solution = placer.place(buffers);
        try {
            buffers.validate(solution.offsets());
        } catch (InvalidPlanException e) {
            throw read.offlineOffsets().isEmpty() ? e
                    : new InvalidPlanException(input + ": the offline offsets do not fit: " + e.getMessage());
        }
        print(PlanPicture.of(input.getFileName() + ", planner " + placer.name(), buffers, solution.offsets()),
                () -> toJson(buffers, placer.name(), solution), out -> {
                    if (tflmPrint) {
                        out.print(TflmPrintout.of(buffers, solution.offsets()));
                    } else {
                        printText(out, buffers, placer.name(), solution);
                    }
                });
        return 0;
    }

    private int fitBuffers(long capacity) throws IOException {
        releaseInputs.refuseForBuffers();
        if (!planner.equals(OptimalPlacer.NAME)) {
            throw new IllegalArgumentException("--capacity asks the exact search: give --planner " + OptimalPlacer.NAME);
        }
        BufferSet buffers = MinimallocCsv.read(input);
        OptimalPlacer.Fit fit = new OptimalPlacer(timeLimit.duration()).fit(buffers, capacity);
        Placer.Solution solution = fit.offsets() == null ? null : new Placer.Solution(fit.offsets(), false);
        if (solution != null) {
            buffers.validate(solution.offsets());
        }
        BufferSet.Peak peak = buffers.peak();
        output.print(() -> {
            ObjectNode root = solution != null ? toJson(buffers, OptimalPlacer.NAME, solution) : Json.object();
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
                printText(out, buffers, OptimalPlacer.NAME, solution);
            }
        });
        return fit.verdict() == OptimalPlacer.Verdict.FITS ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    /** Writes the SVG if asked for, and prints the plan with the terminal picture if asked for and the SVG's file. */
    private void print(PlanPicture picture, Supplier<ObjectNode> asJson, Consumer<PrintWriter> asText) {
        if (svg != null) {
            WritablePath.write(svg, SvgRenderer.render(picture));
        }
        output.print(() -> {
            ObjectNode root = asJson.get();
            if (svg != null) {
                root.put("svg", svg.toString());
            }
            return root;
        }, out -> {
            asText.accept(out);
            if (ascii) {
                out.print(AsciiRenderer.render(picture, ASCII_COLUMNS));
            }
            if (svg != null) {
                out.println("SVG picture written to " + svg);
            }
        });
    }

    /** What the memory order changed, for JSON. */
    static ObjectNode orderJson(MemoryOrder.Result ordered) {
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

    private ObjectNode toJson(Graph graph, Plan plan) {
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

    private void printText(PrintWriter out, Graph graph, Plan plan) {
        if (graph.options().releaseInputs()) {
            out.println(ReleaseInputsOption.DESCRIPTION);
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

    private ObjectNode toJson(BufferSet buffers, String name, Placer.Solution solution) {
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

    private void printText(PrintWriter out, BufferSet buffers, String name, Placer.Solution solution) {
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

    static String percent(double gap) {
        return String.format(java.util.Locale.ROOT, "%.1f%%", gap * 100);
    }
}
