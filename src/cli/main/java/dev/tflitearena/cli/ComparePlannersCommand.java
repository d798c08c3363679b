package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.cli.options.GraphSource.Kind;
import dev.tflitearena.cli.options.ForRuntimeOption;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.PlanFileOption;
import dev.tflitearena.cli.options.PlannerTableOptions;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.ReleaseInputsOption;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.TflmPlanView;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.catalog.PlannerTable;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.catalog.RuleBounds;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.tflm.TflmAllocations;
import dev.tflitearena.progress.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare-planners", mixinStandardHelpOptions = true,
        description = "Runs every planner on a model, a graph JSON or a MiniMalloc CSV: per planner, the arena "
                + "(rw arenas summed over subgraphs), the gap to the lower bound, whether it is proven optimal, and "
                + "the planning time; for a model also the native planner's arena, as the runtime reports it.")
final class ComparePlannersCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite|GRAPH.json|FILE.csv")
    Path input;

    @Mixin
    PlannerTableOptions options;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    /**
     * The planners' rows, the lower bound, and the native arena (-1 when there is no model); for a graph, its
     * bound under each rule (null for a buffer set, which has neither graph inputs nor ops).
     */
    record Table(List<PlannerTable.Row> rows, long lowerBound, long nativeArenaBytes, Graph graph,
                 BufferSet buffers, RuleBounds ruleBounds, TflmAllocations tflm) {
        /** A buffer's label in pictures: a tensor's name under TFLM's rules, else the buffer's id. */
        String label(int id) {
            return tflm != null ? TflmPlanView.label(tflm, id) : Integer.toString(id);
        }
    }

    @Override
    public Integer call() throws IOException {
        Table table;
        try (ProgressDisplay display = progress.open()) {
            table = measure(input, options, display);
        }
        output.print(() -> toJson(table), out -> printText(out, table));
        return 0;
    }

    /** With {@code --plan}, the plan of the file is the first row: a plan that does not fit fails at once. */
    static Table measure(Path input, PlannerTableOptions options, Progress progress) throws IOException {
        PlanFileOption planFile = options.planFile;
        ReleaseInputsOption releaseInputs = options.releaseInputs;
        ForRuntimeOption forRuntime = options.forRuntime;
        Duration timeLimit = options.timeLimit.duration();
        if (forRuntime.tflm()) {
            if (planFile.given() || releaseInputs.on) {
                throw new IllegalArgumentException("--for tflm follows TFLM's rules as they are: not with --plan or "
                        + "--release-inputs");
            }
            TflmAllocations allocations = forRuntime.allocations(input);
            BufferSet buffers = allocations.buffers();
            List<Placer> placers = ForRuntimeOption.withOfflinePlan(allocations,
                    Planners.placers(timeLimit));
            return new Table(PlannerTable.of(buffers, placers, progress), buffers.lowerBound(), -1, null, buffers,
                    null, allocations);
        }
        Kind kind = Kind.of(input, Kind.MODEL, Kind.GRAPH_JSON, Kind.BUFFER_CSV);
        List<Planner> planners = new ArrayList<>(Planners.all(timeLimit));
        if (planFile.given()) {
            if (kind == Kind.BUFFER_CSV) {
                throw new IllegalArgumentException("--plan places a model's tensors; " + input
                        + " is a bare buffer set");
            }
            planners.add(0, planFile.read(input, releaseInputs.on, Order.MODEL, options.nativeOptions.xnnpack.on));
        }
        if (kind == Kind.BUFFER_CSV) {
            releaseInputs.refuseForBuffers();
            BufferSet buffers = MinimallocCsv.read(input);
            return new Table(PlannerTable.of(buffers, Planners.placers(timeLimit), progress),
                    buffers.lowerBound(), -1, null, buffers, null, null);
        }
        Graph graph;
        long nativeArena = -1;
        if (kind == Kind.GRAPH_JSON) {
            graph = GraphJson.read(input);
        } else {
            progress.step("the native plan");
            try (NativeModel model = NativeModel.load(input);
                 NativeInterpreter interpreter = NativeInterpreter.build(model, options.nativeOptions.settings())) {
                interpreter.allocateTensors();
                graph = interpreter.snapshot();
                nativeArena = interpreter.memoryInfo().arenaBytes();
            }
        }
        graph = releaseInputs.apply(graph);
        List<PlannerTable.Row> rows = PlannerTable.of(graph, planners, progress);
        progress.step("the lower bound under each rule");
        return new Table(rows, PlannerTable.lowerBound(graph), nativeArena, graph, null, RuleBounds.of(graph), null);
    }

    private ObjectNode toJson(Table table) {
        ObjectNode root = Json.object();
        root.put("input", input.toString());
        if (table.tflm() != null) {
            root.put("for", "tflm");
            root.put("alignment", table.tflm().alignment());
        }
        if (table.graph() != null) {
            root.put("release_inputs", table.graph().options().releaseInputs());
        }
        root.put("lower_bound_bytes", table.lowerBound());
        if (table.nativeArenaBytes() >= 0) {
            root.put("native_arena_bytes", table.nativeArenaBytes());
            root.put("resolver", options.nativeOptions.settings().resolverName());
        }
        if (table.ruleBounds() != null) {
            RuleBounds b = table.ruleBounds();
            ObjectNode bounds = root.putObject("lower_bound_by_rule");
            bounds.put("tflite_rules", b.tfliteRules());
            bounds.put("release_inputs", b.releaseInputs());
            bounds.put("memory_order", b.memoryOrder());
            bounds.put("release_inputs_and_memory_order", b.releaseInputsAndMemoryOrder());
        }
        ArrayNode planners = root.putArray("planners");
        for (PlannerTable.Row row : table.rows()) {
            ObjectNode p = planners.addObject();
            p.put("name", row.name());
            p.put("arena_bytes", row.arenaBytes());
            p.put("gap", row.gap(table.lowerBound()));
            p.put("optimal_proven", row.provenOptimal());
            p.put("millis", row.millis());
        }
        return root;
    }

    private void printText(PrintWriter out, Table table) {
        out.printf("%s%s: lower bound %,d bytes%s%s%n", input, table.tflm() == null ? ""
                        : " for TFLM (alignment " + table.tflm().alignment() + ")", table.lowerBound(),
                table.graph() != null && table.graph().options().releaseInputs()
                        ? " (" + PlanReport.RELEASE_INPUTS + ")" : "",
                table.nativeArenaBytes() < 0 ? ""
                        : String.format(", native arena %,d bytes (%s)", table.nativeArenaBytes(),
                        options.nativeOptions.settings().resolverName()));
        TextTable text = new TextTable("planner", "arena_bytes", "gap", "optimal", "millis").leftAlign(0);
        if (table.nativeArenaBytes() >= 0) {
            text.add("native", String.format("%,d", table.nativeArenaBytes()),
                    PlanReport.percent(LowerBound.gap(table.nativeArenaBytes(), table.lowerBound())), "", "");
        }
        for (PlannerTable.Row row : table.rows()) {
            text.add(row.name(), String.format("%,d", row.arenaBytes()), PlanReport.percent(row.gap(table.lowerBound())),
                    row.provenOptimal() ? "proven" : "", row.millis());
        }
        text.print(out);
        if (table.ruleBounds() != null) {
            out.println(ruleBounds(table.ruleBounds()));
        }
    }

    /** One line: the bound under TFLite's rules, then under each relaxed rule with what it saves. */
    static String ruleBounds(RuleBounds b) {
        return String.format("lower bound by rule: TFLite's %,d; inputs released %,d (%s); memory order %,d (%s); "
                        + "both %,d (%s)", b.tfliteRules(), b.releaseInputs(), change(b.releaseInputs(), b),
                b.memoryOrder(), change(b.memoryOrder(), b), b.releaseInputsAndMemoryOrder(),
                change(b.releaseInputsAndMemoryOrder(), b));
    }

    static String change(long bound, RuleBounds b) {
        return PlanReport.percent(LowerBound.gap(bound, b.tfliteRules()));
    }
}
