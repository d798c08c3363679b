package dev.tflitearena.cli;

import dev.tflitearena.cli.options.MeasurementOptions;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.ResultFileOption;
import dev.tflitearena.cli.options.RoundOptions;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.release.compare.Metric;
import dev.tflitearena.release.compare.RoundMeasurement;
import dev.tflitearena.release.compare.RoundReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

@Command(name = "release-round", mixinStandardHelpOptions = true,
        description = "One round of one side of 'releases --compare', on the TFLite release this jar was built "
                + "with: times every model of a directory (builtin kernels, no XNNPACK, TFLite's default threads) "
                + "and writes each metric's fastest sample as JSON. 'releases --compare' runs it "
                + "for each side in turn; it is a command of its own so that each round runs in a fresh JVM.")
final class ReleaseRoundCommand implements Callable<Integer> {
    @Mixin
    MeasurementOptions measurement;

    @Mixin
    RoundOptions round;

    @Option(names = "--plans-for", paramLabel = "X.Y",
            description = "Also read TFLite's plan of each model, and make the Java plan under this release's rules.")
    String plansFor;

    @Option(names = "--runnable", description = "Instead of timing, only say which models this release can run, "
            + "and why not where it cannot: 'releases --compare' asks each side before the first round.")
    boolean runnable;

    @Option(names = "--skip", split = ",", paramLabel = "MODEL",
            description = "Models of the directory to leave out, by file name: those neither side can run.")
    List<String> skip = List.of();

    @Mixin
    ResultFileOption out;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws Exception {
        out.check();
        Set<Metric> chosen = round.metrics.stream().map(Metric::of).collect(Collectors.toSet());
        TfliteRelease rules = plansFor == null ? null : TfliteRelease.of(plansFor);
        List<Path> models = ReleaseReportCommand.models(measurement.modelsDirectory).stream()
                .filter(m -> !skip.contains(m.getFileName().toString())).toList();
        RoundReport report;
        try (ProgressDisplay display = progress.open()) {
            report = runnable ? RoundMeasurement.runnable(models, display)
                    : new RoundMeasurement(round.warmup, round.samples, chosen).measure(models, rules, display);
        }
        out.write(report.toJson());
        return 0;
    }
}
