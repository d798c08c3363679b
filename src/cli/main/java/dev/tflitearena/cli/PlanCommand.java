package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.GraphSource.Kind;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.render.AsciiRenderer;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.render.SvgRenderer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;

@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plans a graph's tensor memory: per subgraph and tensor, its offset, bytes, and first and "
                + "last node; the arena and persistent sizes, the lower bound and the gap to it. The extension "
                + "says what the file is: a .tflite model is read through the native interpreter (op temporaries "
                + "included), a .json as graph JSON, a .csv as a MiniMalloc buffer set (id,lower,upper,size); "
                + "any other file is refused. Every plan is validated.")
final class PlanCommand implements Callable<Integer> {
    /** Columns of the terminal picture. */
    private static final int ASCII_COLUMNS = 100;

    @Parameters(paramLabel = "GRAPH.json|MODEL.tflite|FILE.csv")
    Path input;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The placement strategy: tflite, tflm-greedy, greedy-by-size, greedy-by-breadth, best-of, "
                    + "optimal (default: ${DEFAULT-VALUE}).")
    String planner;

    @Option(names = "--time-limit", defaultValue = "10", paramLabel = "SECONDS",
            description = "How long 'optimal' may search (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the plan as an SVG picture in FILE, "
            + "whose directory must exist.")
    Path svg;

    @Option(names = "--ascii", description = "Also draw the plan as text, after the table.")
    boolean ascii;

    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    ReleaseInputsOption releaseInputs;

    @Mixin
    Output output;

    static Duration seconds(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    @Override
    public Integer call() throws IOException {
        if (svg != null) {
            WritablePath.checkFile(svg);
        }
        if (Kind.of(input, Kind.MODEL, Kind.GRAPH_JSON, Kind.BUFFER_CSV) == Kind.BUFFER_CSV) {
            planBuffers();
        } else {
            planGraph();
        }
        return 0;
    }

    private void planGraph() throws IOException {
        var strategy = Planners.byName(planner, seconds(timeLimit));
        Graph graph = releaseInputs.apply(GraphSource.read(input, nativeOptions.settings()));
        Plan plan = strategy.plan(graph);
        PlanValidator.validate(graph, plan, graph.options().tensorAlignment());
        print(PlanPicture.of(graph, plan), () -> toJson(graph, plan), out -> printText(out, graph, plan));
    }

    private void planBuffers() throws IOException {
        releaseInputs.refuseForBuffers();
        Placer placer = Planners.placerByName(planner, seconds(timeLimit));
        BufferSet buffers = MinimallocCsv.read(input);
        Placer.Solution solution = placer.place(buffers);
        buffers.validate(solution.offsets());
        print(PlanPicture.of(input.getFileName() + ", planner " + placer.name(), buffers, solution.offsets()),
                () -> toJson(buffers, placer.name(), solution), out -> printText(out, buffers, placer.name(), solution));
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
