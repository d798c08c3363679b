package dev.tflitearena.cli;

import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.release.compare.SlowdownReport;
import dev.tflitearena.release.compare.SlowedModels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "slowed-models", mixinStandardHelpOptions = true,
        description = "Writes a copy of every model of a directory made slower by a known, measured amount: side B's "
                + "models for 'releases --compare', to validate the regression detector end to end. Each copy has "
                + "extra ADD operators after the model's own, a chain over its first float32 input that ends in a new "
                + "last output, so the model's outputs stay the same, byte for byte. Their count is calibrated so that "
                + "an Invoke takes about --by percent longer (a first guess, then two short measurements, each "
                + "correcting it), and the slowdown is then measured: both interpreters in one JVM (builtin kernels "
                + "without XNNPACK, TFLite's default threads, the seeded inputs of 'release-report'), samples "
                + "alternating A B, B A for --pairs pairs, each sample the fastest of at least 3 Invokes and of as "
                + "many as fill 20 ms; B's fastest sample over A's less 1 (the statistic of 'releases --compare'), "
                + "and the interquartile range of the pairs' ratios. "
                + "Writes OUT/MODEL.tflite under the original's file name and OUT/slowdown.json, and prints the "
                + "table; a model the builtin resolver cannot build (a custom op) is skipped, with its error.")
final class SlowedModelsCommand implements Callable<Integer> {
    @Option(names = "--by", required = true, paramLabel = "PERCENT",
            description = "How much slower each model's Invoke is to be, in percent: above 0, at most 100.")
    double by;

    @Option(names = "--models-dir", defaultValue = "tests/models", paramLabel = "DIR",
            description = "Every .tflite file in it is slowed (default: ${DEFAULT-VALUE}).")
    Path modelsDirectory;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "Where the slowed models and slowdown.json go; not the models' directory.")
    Path out;

    @Option(names = "--pairs", defaultValue = "20", paramLabel = "N",
            description = "Pairs of samples of the final measurement of each model, at least 2 (default: "
                    + "${DEFAULT-VALUE}).")
    int pairs;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(by > 0 && by <= 100)) {
            throw new IllegalArgumentException("--by " + number(by) + ": the slowdown is a percent above 0 and at "
                    + "most 100");
        }
        if (pairs < 2) {
            throw new IllegalArgumentException("--pairs " + pairs + ": the measurement needs at least 2 pairs");
        }
        List<Path> models = ReleaseReportCommand.models(modelsDirectory);
        if (models.isEmpty()) {
            throw new IllegalArgumentException(modelsDirectory + ": no .tflite files in it");
        }
        WritablePath.checkDirectory(out);
        if (Files.isDirectory(out) && Files.isSameFile(out, modelsDirectory)) {
            throw new IllegalArgumentException("--out " + out + " is the models' directory: the slowed models "
                    + "would replace the originals");
        }
        Files.createDirectories(out);
        SlowedModels slowing = new SlowedModels(by, pairs);
        List<SlowdownReport.Entry> entries = new ArrayList<>();
        try (ProgressDisplay display = progress.open()) {
            for (Path model : models) {
                String name = model.getFileName().toString();
                SlowedModels.Slowed slowed = slowing.slow(model,
                        part -> display.advance(entries.size(), models.size(), name + ": " + part));
                if (slowed.model() != null) {
                    WritablePath.write(out.resolve(name), slowed.model());
                }
                entries.add(slowed.entry());
            }
        }
        SlowdownReport report = slowing.report(entries);
        Path json = out.resolve("slowdown.json");
        WritablePath.write(json, report.toJson());
        print(spec.commandLine().getOut(), report, json);
        return 0;
    }

    private void print(PrintWriter o, SlowdownReport report, Path json) {
        o.printf("Slowed by %s%% (target), measured over %d pairs, %s, TFLite %s:%n%n", number(by), pairs,
                report.resolver(), report.tfliteLibrary());
        TextTable table = new TextTable("model", "operations", "measured", "interquartile", "original ms",
                "slowed ms").leftAlign(0).leftAlign(3);
        for (SlowdownReport.Entry e : report.models()) {
            if (e.ok()) {
                table.add(e.model(), e.operations(), percent(e.measuredPercent()), percent(e.measuredIqrPercent()[0])
                        + " .. " + percent(e.measuredIqrPercent()[1]), e.originalInvokeMs(), e.slowedInvokeMs());
            }
        }
        table.print(o);
        for (SlowdownReport.Entry e : report.models()) {
            if (!e.ok()) {
                o.printf("skipped %s: %s%n", e.model(), e.error());
            }
        }
        o.printf("%nWritten to %s (the slowed models and %s)%n", out, json.getFileName());
        o.flush();
    }

    private static String percent(double value) {
        return String.format(Locale.ROOT, "%+.2f%%", value);
    }

    /** A percent as given: 5, not 5.0. */
    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
