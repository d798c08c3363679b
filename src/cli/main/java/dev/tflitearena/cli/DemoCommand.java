package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.models.DemoModel;
import dev.tflitearena.plan.Ledger;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.render.HtmlReport;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.render.SvgRenderer;
import dev.tflitearena.plan.tflite.TflitePlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Builds the classic worked example of arena reuse (a 224x224x3 input through outputs of "
                + "112x112x16, 56x56x32, 28x28x64 and 1000 values, four GATHER_ND ops that add no temporaries), in "
                + "float32 and int8, runs the native planner and every Java planner on it, and prints the ledger. "
                + "Writes the plan pictures and an HTML report to --out.")
final class DemoCommand implements Callable<Integer> {
    private static final java.time.Duration DEMO_TIME_LIMIT = java.time.Duration.ofSeconds(2);

    @Option(names = "--out", defaultValue = "target/demo", paramLabel = "DIR",
            description = "Where the pictures and report go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Mixin
    Output output;

    /** One version of the demo, measured. */
    private record Run(String name, Graph graph, long nativeArenaBytes, long nativeNaiveBytes, Ledger ledger,
                       Plan nativePlan, List<Plan> plans) {
        Subgraph subgraph() {
            return graph.subgraphs().get(0);
        }
    }

    @Override
    public Integer call() throws IOException {
        Run float32 = measure("float32", DemoModel::float32);
        Run int8 = measure("int8", DemoModel::int8);
        writePictures(List.of(float32, int8));
        output.print(() -> toJson(float32, int8), text -> printText(text, float32, int8));
        return 0;
    }

    private static Run measure(String name, Supplier<byte[]> model) {
        try (NativeModel loaded = NativeModel.fromBytes(model.get(), "demo_" + name)) {
            Graph graph;
            Plan nativePlan;
            try (NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
                interpreter.allocateTensors();
                graph = interpreter.snapshot();
                nativePlan = interpreter.nativePlan();
            }
            long naive;
            try (NativeInterpreter preserving = NativeInterpreter.build(loaded,
                    InterpreterSettings.DEFAULT.withPreserveAllTensors(true))) {
                preserving.allocateTensors();
                naive = preserving.memoryInfo().arenaBytes();
            }
            List<Plan> plans = Planners.all(DEMO_TIME_LIMIT).stream().map(p -> p.plan(graph)).toList();
            return new Run(name, graph, nativePlan.subgraphs().get(0).arenaBytes(), naive,
                    Ledger.of(graph.subgraphs().get(0), graph.options()), nativePlan, plans);
        }
    }

    private void writePictures(List<Run> runs) throws IOException {
        Files.createDirectories(out);
        List<HtmlReport.Row> rows = new ArrayList<>();
        List<String> svgs = new ArrayList<>();
        for (Run run : runs) {
            long bound = run.ledger().lowerBoundBytes();
            rows.add(new HtmlReport.Row("native (" + run.name() + ")", run.nativeArenaBytes(), bound,
                    LowerBound.gap(run.nativeArenaBytes(), bound), false, 0, "TFLite's ArenaPlanner, measured"));
            for (Plan plan : run.plans()) {
                SubgraphPlan sp = plan.subgraphs().get(0);
                rows.add(new HtmlReport.Row(plan.planner() + " (" + run.name() + ")", sp.arenaBytes(), bound,
                        LowerBound.gap(sp.arenaBytes(), bound), sp.provenOptimal() || sp.arenaBytes() == bound, 0, ""));
            }
            String svg = SvgRenderer.render(PlanPicture.of(run.graph(), tflitePlan(run)));
            Files.writeString(out.resolve("demo_" + run.name() + ".svg"), svg);
            svgs.add(svg);
        }
        Files.writeString(out.resolve("demo.html"), HtmlReport.render("tflite-arena demo", rows, svgs));
    }

    private static Plan tflitePlan(Run run) {
        return run.plans().stream().filter(p -> p.planner().equals(TflitePlanner.NAME)).findFirst().orElseThrow();
    }

    private ObjectNode toJson(Run float32, Run int8) {
        ObjectNode root = runJson(float32);
        root.set("int8", runJson(int8));
        root.put("pictures", out.toString());
        return root;
    }

    private static ObjectNode runJson(Run run) {
        ObjectNode j = Json.object();
        j.put("model", "demo_" + run.name());
        j.put("resolver", InterpreterSettings.DEFAULT.resolverName());
        j.put("naive_bytes", run.ledger().naiveBytes());
        j.put("native_naive_bytes", run.nativeNaiveBytes());
        j.put("peak_live_bytes", run.ledger().peakLiveBytes());
        j.put("lower_bound_bytes", run.ledger().lowerBoundBytes());
        j.put("native_arena_bytes", run.nativeArenaBytes());
        ArrayNode planners = j.putArray("planners");
        for (Plan plan : run.plans()) {
            ObjectNode p = planners.addObject();
            p.put("name", plan.planner());
            p.put("arena_bytes", plan.subgraphs().get(0).arenaBytes());
        }
        ArrayNode tensors = j.putArray("tensors");
        for (Placement p : run.nativePlan().subgraphs().get(0).placements()) {
            Tensor t = run.subgraph().tensor(p.tensor());
            ObjectNode tj = tensors.addObject();
            tj.put("index", t.index());
            tj.put("name", t.name());
            tj.put("type", t.type());
            tj.put("shape", Arrays.toString(t.shape()));
            tj.put("bytes", t.bytes());
            Json.putOffset(tj, "native_offset", p.offset());
        }
        return j;
    }

    private void printText(PrintWriter text, Run float32, Run int8) {
        for (Run run : List.of(float32, int8)) {
            text.printf("demo_%s (%s)%n", run.name(), InterpreterSettings.DEFAULT.resolverName());
            TextTable table = new TextTable("tensor", "name", "type", "shape", "bytes", "KiB", "first", "last",
                    "native_offset", "tflite_offset").leftAlign(1).leftAlign(2).leftAlign(3);
            List<Placement> tflite = tflitePlan(run).subgraphs().get(0).placements();
            List<Placement> nativeOffsets = run.nativePlan().subgraphs().get(0).placements();
            for (int i = 0; i < tflite.size(); i++) {
                Placement p = tflite.get(i);
                Tensor t = run.subgraph().tensor(p.tensor());
                table.add(t.index(), t.name(), t.type(), Arrays.toString(t.shape()), t.bytes(),
                        String.format(Locale.ROOT, "%.1f", t.bytes() / 1024.0), p.first(), p.last(),
                        TextTable.orDash(nativeOffsets.get(i).offset()), TextTable.orDash(p.offset()));
            }
            table.print(text);
            text.println();
        }
        TextTable ledger = new TextTable("ledger", "float32", "int8").leftAlign(0);
        ledger.add("naive total (every tensor its own buffer)", bytes(float32.ledger().naiveBytes()),
                bytes(int8.ledger().naiveBytes()));
        ledger.add("  measured: native arena, preserve_all_tensors", bytes(float32.nativeNaiveBytes()),
                bytes(int8.nativeNaiveBytes()));
        ledger.add("peak live bytes if the input were freed", bytes(float32.ledger().peakLiveBytes()),
                bytes(int8.ledger().peakLiveBytes()));
        ledger.add("lower bound under TFLite's rules", bytes(float32.ledger().lowerBoundBytes()),
                bytes(int8.ledger().lowerBoundBytes()));
        ledger.add("native arena (measured)", bytes(float32.nativeArenaBytes()), bytes(int8.nativeArenaBytes()));
        for (int i = 0; i < float32.plans().size(); i++) {
            ledger.add("Java planner " + float32.plans().get(i).planner(),
                    bytes(float32.plans().get(i).subgraphs().get(0).arenaBytes()),
                    bytes(int8.plans().get(i).subgraphs().get(0).arenaBytes()));
        }
        ledger.print(text);
        text.println();
        text.println("The ops are four GATHER_NDs: their kernel adds no temporaries and shares no memory in place.");
        text.println("Pictures and report: " + out.resolve("demo.html"));
    }

    private static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d (%.1f KiB)", bytes, bytes / 1024.0);
    }
}
