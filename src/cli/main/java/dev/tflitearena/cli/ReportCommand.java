package dev.tflitearena.cli;

import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.catalog.PlannerTable;
import dev.tflitearena.plan.render.HtmlReport;
import dev.tflitearena.plan.render.PlanPicture;
import dev.tflitearena.plan.render.SvgRenderer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Writes an HTML page with the planner table of compare-planners and the picture of every "
                + "planner's plan, one panel per subgraph, to DIR/report.html.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite|GRAPH.json|FILE.csv")
    Path input;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where report.html goes.")
    Path out;

    @Option(names = "--time-limit", defaultValue = "10", paramLabel = "SECONDS",
            description = "How long 'optimal' may search, per subgraph (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Mixin
    NativeOptions nativeOptions;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ComparePlannersCommand.Table table = ComparePlannersCommand.measure(input, nativeOptions, timeLimit);
        List<HtmlReport.Row> rows = new ArrayList<>();
        if (table.nativeArenaBytes() >= 0) {
            rows.add(new HtmlReport.Row("native", table.nativeArenaBytes(), table.lowerBound(),
                    LowerBound.gap(table.nativeArenaBytes(), table.lowerBound()), false, 0,
                    "TFLite's ArenaPlanner, as the runtime reports it (" + nativeOptions.settings().resolverName() + ")"));
        }
        List<String> svgs = new ArrayList<>();
        for (PlannerTable.Row row : table.rows()) {
            rows.add(new HtmlReport.Row(row.name(), row.arenaBytes(), table.lowerBound(), row.gap(table.lowerBound()),
                    row.provenOptimal(), row.millis(), ""));
            PlanPicture picture = table.graph() != null ? PlanPicture.of(table.graph(), row.plan())
                    : PlanPicture.of(input.getFileName() + ", planner " + row.name(), table.buffers(), row.offsets());
            svgs.add(SvgRenderer.render(picture));
        }
        Files.createDirectories(out);
        Path page = out.resolve("report.html");
        Files.writeString(page, HtmlReport.render(input.getFileName().toString(), rows, svgs));
        spec.commandLine().getOut().println(page);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
