package dev.tflitearena.cli;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.cli.options.PlannerTableOptions;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.catalog.PlannerTable;
import dev.tflitearena.plan.catalog.RuleBounds;
import dev.tflitearena.plan.render.HtmlReport;
import dev.tflitearena.plan.render.PlanPicture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Writes an HTML page with the planner table of compare-planners, the tensors live at the "
                + "peak of the lower bound, and the picture of every planner's plan, one panel per subgraph, to "
                + "DIR/report.html.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite|GRAPH.json|FILE.csv")
    Path input;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where report.html goes.")
    Path out;

    @Mixin
    PlannerTableOptions options;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        WritablePath.checkDirectory(out);
        ComparePlannersCommand.Table table;
        List<PlanPicture> pictures = new ArrayList<>();
        try (ProgressDisplay display = progress.open()) {
            table = ComparePlannersCommand.measure(input, options, display);
            for (PlannerTable.Row row : table.rows()) {
                display.advance(pictures.size(), table.rows().size(), "picture of planner " + row.name());
                pictures.add(table.graph() != null ? PlanPicture.of(table.graph(), row.plan())
                        : PlanPicture.of(input.getFileName() + (table.tflm() == null ? "" : " for TFLM") + ", planner "
                        + row.name(), table.buffers(), row.offsets(), table::label));
            }
        }
        HtmlReport.Section section = new HtmlReport.Section("",
                rows(table.rows(), table.lowerBound(), table.nativeArenaBytes()), pictures);
        Files.createDirectories(out);
        Path page = out.resolve("report.html");
        WritablePath.write(page, HtmlReport.render(input.getFileName().toString(), provenance(table),
                table.ruleBounds() == null ? null : ruleBounds(table.ruleBounds()), List.of(section)));
        spec.commandLine().getOut().println(page);
        spec.commandLine().getOut().flush();
        return 0;
    }

    /**
     * A report's table: the native plan first when there is one ({@code nativeArenaBytes} not negative), then
     * every Java planner with its planning time.
     */
    static List<HtmlReport.Row> rows(List<PlannerTable.Row> planners, long lowerBound, long nativeArenaBytes) {
        List<HtmlReport.Row> rows = new ArrayList<>();
        if (nativeArenaBytes >= 0) {
            // TFLite plans inside AllocateTensors(), along with preparing every kernel: there is no planning
            // time of its own to show.
            rows.add(new HtmlReport.Row("native", nativeArenaBytes, lowerBound,
                    LowerBound.gap(nativeArenaBytes, lowerBound), false, HtmlReport.Row.NOT_MEASURED,
                    "TFLite's ArenaPlanner, as the runtime reports it"));
        }
        for (PlannerTable.Row row : planners) {
            rows.add(new HtmlReport.Row(row.name(), row.arenaBytes(), lowerBound, row.gap(lowerBound),
                    row.provenOptimal(), row.millis(), ""));
        }
        return rows;
    }

    /** What each rule TFLite plans under costs: the bound with the rule relaxed, against TFLite's. */
    static HtmlReport.Table ruleBounds(RuleBounds b) {
        List<List<String>> rows = List.of(
                List.of("TFLite's rules", String.format("%,d", b.tfliteRules()), ""),
                List.of("graph inputs released after their last consumer (--release-inputs)",
                        String.format("%,d", b.releaseInputs()), ComparePlannersCommand.change(b.releaseInputs(), b)),
                List.of("primary subgraph in the memory-aware order (--order memory)",
                        String.format("%,d", b.memoryOrder()), ComparePlannersCommand.change(b.memoryOrder(), b)),
                List.of("both", String.format("%,d", b.releaseInputsAndMemoryOrder()),
                        ComparePlannersCommand.change(b.releaseInputsAndMemoryOrder(), b)));
        return new HtmlReport.Table("Lower bound by rule", "", List.of("rule", "lower bound (bytes)",
                "against TFLite's rules"), rows);
    }

    private HtmlReport.Provenance provenance(ComparePlannersCommand.Table table) {
        String date = LocalDate.now().toString();
        if (table.tflm() != null) {
            return new HtmlReport.Provenance("not used: planned under TFLM's rules (its lifetimes, one arena for every "
                    + "subgraph, alignment " + table.tflm().alignment() + "), read from the .tflite", "none", date);
        }
        if (table.graph() == null) {
            return new HtmlReport.Provenance("not used (a MiniMalloc CSV is a bare buffer set)", "none", date);
        }
        String rules = table.graph().options().release().version() + "'s rules"
                + (table.graph().options().releaseInputs() ? ", " + PlanReport.RELEASE_INPUTS : "");
        if (table.nativeArenaBytes() < 0) {
            return new HtmlReport.Provenance("not loaded: the graph JSON is planned under " + rules,
                    "none (no interpreter is built)", date);
        }
        return new HtmlReport.Provenance(NativeRelease.version() + ", planned under " + rules,
                resolver(options.nativeOptions.settings()), date);
    }

    /** The resolver's name, and preserve_all_tensors when it is set, since both change the native plan. */
    private static String resolver(InterpreterSettings settings) {
        return settings.resolverName() + (settings.preserveAllTensors() ? ", preserve_all_tensors" : "");
    }
}
