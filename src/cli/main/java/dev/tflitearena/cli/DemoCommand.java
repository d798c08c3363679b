package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.models.DemoModel;
import dev.tflitearena.plan.Ledger;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.catalog.PlannerTable;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.render.HtmlReport;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.render.SvgRenderer;
import dev.tflitearena.plan.tflite.TflitePlanner;
import dev.tflitearena.progress.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
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
                + "Writes the plan pictures and an HTML report with the same ledger to --out.")
final class DemoCommand implements Callable<Integer> {
    private static final java.time.Duration DEMO_TIME_LIMIT = java.time.Duration.ofSeconds(2);

    @Option(names = "--out", defaultValue = "target/demo", paramLabel = "DIR",
            description = "Where the pictures and report go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    /** One version of the demo, measured; {@code planners} in {@link Planners#all} order. */
    private record Run(String name, Graph graph, long nativeArenaBytes, long nativeNaiveBytes, Ledger ledger,
                       Plan nativePlan, List<PlannerTable.Row> planners) {
        Subgraph subgraph() {
            return graph.subgraphs().get(0);
        }
    }

    @Override
    public Integer call() throws IOException {
        WritablePath.checkDirectory(out);
        Run float32;
        Run int8;
        try (ProgressDisplay display = progress.open()) {
            float32 = measure("float32", DemoModel::float32, display);
            int8 = measure("int8", DemoModel::int8, display);
        }
        writePictures(float32, int8);
        output.print(() -> toJson(float32, int8), text -> printText(text, float32, int8));
        return 0;
    }

    private static Run measure(String name, Supplier<byte[]> model, Progress progress) {
        progress.step(name + ": native interpreters");
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
            return new Run(name, graph, nativePlan.subgraphs().get(0).arenaBytes(), naive,
                    Ledger.of(graph.subgraphs().get(0), graph.options()), nativePlan,
                    PlannerTable.of(graph, Planners.all(DEMO_TIME_LIMIT), progress));
        }
    }

    /** Per version an SVG of the tflite plan, and the page: the ledger, then per version its table and picture. */
    private void writePictures(Run float32, Run int8) throws IOException {
        Files.createDirectories(out);
        List<HtmlReport.Section> sections = new ArrayList<>();
        for (Run run : List.of(float32, int8)) {
            PlanPicture planned = PlanPicture.of(run.graph(), tflitePlan(run));
            PlanPicture picture = new PlanPicture("demo_" + run.name() + ": " + planned.title(), planned.panels());
            WritablePath.write(out.resolve("demo_" + run.name() + ".svg"), SvgRenderer.render(picture));
            sections.add(new HtmlReport.Section(run.name(), ReportCommand.rows(run.planners(),
                    run.ledger().lowerBoundBytes(), run.nativeArenaBytes()), List.of(picture)));
        }
        HtmlReport.Provenance provenance = new HtmlReport.Provenance(NativeRelease.version() + ", planned under "
                + float32.graph().options().release().version() + "'s rules",
                InterpreterSettings.DEFAULT.resolverName(), LocalDate.now().toString());
        WritablePath.write(out.resolve("demo.html"),
                HtmlReport.render("tflite-arena demo", provenance, ledger(float32, int8), sections));
    }

    private static Plan tflitePlan(Run run) {
        return run.planners().stream().filter(p -> p.name().equals(TflitePlanner.NAME)).findFirst().orElseThrow()
                .plan();
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
        for (PlannerTable.Row row : run.planners()) {
            ObjectNode p = planners.addObject();
            p.put("name", row.name());
            p.put("arena_bytes", row.arenaBytes());
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
        HtmlReport.Table ledger = ledger(float32, int8);
        TextTable ledgerText = new TextTable(ledger.header().toArray(String[]::new)).leftAlign(0);
        ledger.rows().forEach(row -> ledgerText.add(row.toArray()));
        ledgerText.print(text);
        text.println();
        text.println("The ops are four GATHER_NDs: their kernel adds no temporaries and shares no memory in place.");
        text.println("Pictures and report: " + out.resolve("demo.html"));
    }

    /** The ledger, as the terminal and the page both show it. */
    private static HtmlReport.Table ledger(Run float32, Run int8) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("naive total (every tensor its own buffer)", bytes(float32.ledger().naiveBytes()),
                bytes(int8.ledger().naiveBytes())));
        rows.add(List.of("  measured: native arena, preserve_all_tensors", bytes(float32.nativeNaiveBytes()),
                bytes(int8.nativeNaiveBytes())));
        rows.add(List.of("lower bound, the input released (--release-inputs)",
                bytes(float32.ledger().peakLiveBytes()), bytes(int8.ledger().peakLiveBytes())));
        rows.add(List.of("lower bound under TFLite's rules", bytes(float32.ledger().lowerBoundBytes()),
                bytes(int8.ledger().lowerBoundBytes())));
        rows.add(List.of("native arena (measured)", bytes(float32.nativeArenaBytes()),
                bytes(int8.nativeArenaBytes())));
        for (int i = 0; i < float32.planners().size(); i++) {
            rows.add(List.of("Java planner " + float32.planners().get(i).name(),
                    bytes(float32.planners().get(i).arenaBytes()), bytes(int8.planners().get(i).arenaBytes())));
        }
        return new HtmlReport.Table("Ledger", DemoModel.DESCRIPTION, List.of("ledger", "float32", "int8"), rows);
    }

    private static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d (%.1f KiB)", bytes, bytes / 1024.0);
    }
}
