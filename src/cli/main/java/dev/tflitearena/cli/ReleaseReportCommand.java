package dev.tflitearena.cli;

import dev.tflitearena.cli.options.MeasurementOptions;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.ResultFileOption;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.release.ModelReport;
import dev.tflitearena.release.ReleaseMeasurement;
import dev.tflitearena.release.ReleaseReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

@Command(name = "release-report", mixinStandardHelpOptions = true,
        description = "Measures every model of a directory on the TFLite release this jar was built with: the "
                + "cross-check (builtin kernels and XNNPACK, each with and without preserve_all_tensors), the tensor "
                + "count, and both arenas' plans and buffers: figures that are exact, the same on every run. Writes "
                + "the release report JSON that 'releases' collects and 'regress' compares. Times vary from run to "
                + "run: 'releases --compare' measures them, two sides interleaved. Exit status 1 when a cross-check "
                + "finds a difference; a model the release cannot build is recorded with its error.")
final class ReleaseReportCommand implements Callable<Integer> {
    @Mixin
    ResultFileOption out;

    @Mixin
    MeasurementOptions measurement;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws Exception {
        out.check();
        ReleaseReport report;
        try (ProgressDisplay display = progress.open()) {
            report = ReleaseMeasurement.measure(models(measurement.modelsDirectory), display);
        }
        out.write(report.toJson(), written -> written.printf("TFLite %s: %d models, %d identical, %d not built; "
                + "written to %s%n", report.tfliteLibrary(), report.models().size(),
                report.models().stream().filter(ModelReport::identical).count(),
                report.models().stream().filter(m -> !m.ok()).count(), out.file));
        boolean differs = report.models().stream().anyMatch(m -> m.ok() && !m.identical());
        return differs ? CompareCommand.EXIT_DIFFERENT : 0;
    }

    static List<Path> models(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException(directory + ": no such directory (tests/fetch-models.sh fetches the "
                    + "real models)");
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tflite")).sorted().toList();
        }
    }
}
