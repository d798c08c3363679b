package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.GraphSource.Kind;
import dev.tflitearena.cli.options.FitOptions;
import dev.tflitearena.cli.options.ForRuntimeOption;
import dev.tflitearena.cli.options.ModelPlanningOptions;
import dev.tflitearena.cli.options.OrderedGraph;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.SubgraphOption;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.TflmPlanView;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.PlacerPlanner;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.render.AsciiRenderer;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.render.SvgRenderer;
import dev.tflitearena.plan.render.TflmPrintout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;

@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plans a graph's tensor memory: per subgraph and tensor, its offset, bytes, and first and "
                + "last node; the arena and persistent sizes, the lower bound and the gap to it. The extension "
                + "says what the file is: a .tflite model is read through the native interpreter (op temporaries "
                + "included), a .json as graph JSON, a .csv as a MiniMalloc buffer set (id,lower,upper,size, "
                + "optionally a fifth column offline: a buffer's offline-planned offset for tflm-greedy, -1 for "
                + "none); any other file is refused. Every plan is validated. With --budget or --capacity it is "
                + "'fit', with --export-buffers 'export-buffers'.")
final class PlanCommand implements Callable<Integer> {
    /** Columns of the terminal picture. */
    private static final int ASCII_COLUMNS = 100;

    @Parameters(paramLabel = "GRAPH.json|MODEL.tflite|FILE.csv")
    Path input;

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
            + "arena of the subgraph of --subgraph as a placement problem for an outside planner, as "
            + "'export-buffers INPUT FILE' writes it.")
    Path exportBuffers;

    @Mixin
    SubgraphOption subgraph;

    @Mixin
    FitOptions fit;

    @Mixin
    ModelPlanningOptions options;

    @Mixin
    ForRuntimeOption forRuntime;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        if (svg != null) {
            WritablePath.checkFile(svg);
        }
        if (fit.given() && (exportBuffers != null || svg != null || ascii)) {
            throw new IllegalArgumentException("--capacity and --budget do not go with --export-buffers, --svg or "
                    + "--ascii");
        }
        if (subgraph.given() && exportBuffers == null) {
            throw new IllegalArgumentException("--subgraph is for --export-buffers");
        }
        if (tflmPrint && (output.json || exportBuffers != null)) {
            throw new IllegalArgumentException("--tflm-print prints a plan as text: not with --json or --export-buffers");
        }
        if (exportBuffers != null && options.planFile.given()) {
            throw new IllegalArgumentException("--export-buffers writes a problem and --plan reads a solution: give one");
        }
        if (forRuntime.tflm()) {
            return planForTflm();
        }
        if (exportBuffers != null) {
            ExportBuffersCommand.export(input, exportBuffers, subgraph.index(), () -> options.read(input).graph(),
                    output);
            return 0;
        }
        if (fit.given()) {
            return FitCommand.fit(input, fit, options, output);
        }
        if (Kind.of(input, Kind.MODEL, Kind.GRAPH_JSON, Kind.BUFFER_CSV) == Kind.BUFFER_CSV) {
            options.refuseForBuffers(input);
            return planBuffers();
        }
        return planGraph();
    }

    /** A model under TFLM's rules: pure Java, from the file alone. */
    private int planForTflm() throws IOException {
        if (options.planFile.given() || exportBuffers != null || fit.given() || options.graph.releaseInputs.on
                || options.graph.order.value() != Order.MODEL) {
            throw new IllegalArgumentException("--for tflm follows TFLM's rules as they are: not with --plan, "
                    + "--export-buffers, --capacity, --budget, --release-inputs or --order");
        }
        Placer placer = Planners.placerByName(options.plannerNamed() ? options.planner : TflmGreedyPlacer.NAME,
                options.timeLimit.duration());
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
        Planner strategy = options.planner(input);
        OrderedGraph read = options.read(input);
        Graph graph = read.graph();
        MemoryOrder.Result ordered = read.ordered();
        Plan plan = strategy.plan(graph);
        PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
        print(PlanPicture.of(graph, plan), () -> {
            ObjectNode root = PlanReport.toJson(input, graph, plan);
            if (ordered != null) {
                root.set("order", OrderedGraph.orderJson(ordered));
            }
            return root;
        }, out -> {
            if (ordered != null) {
                out.println(ordered.summary());
            }
            if (tflmPrint) {
                printTflm(out, graph, plan);
            } else {
                PlanReport.printText(out, graph, plan);
            }
        });
        return 0;
    }

    private int planBuffers() throws IOException {
        String planner = options.planner;
        Placer named = Planners.placerByName(planner, options.timeLimit.duration());
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
                () -> PlanReport.toJson(input, buffers, placer.name(), solution), out -> {
                    if (tflmPrint) {
                        out.print(TflmPrintout.of(buffers, solution.offsets()));
                    } else {
                        PlanReport.printText(out, input, buffers, placer.name(), solution);
                    }
                });
        return 0;
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
}
