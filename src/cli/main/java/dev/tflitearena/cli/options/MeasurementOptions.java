package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

/** What a release report measures and how long: shared by 'release-report' and 'releases', which passes them on. */
public final class MeasurementOptions {
    @Option(names = "--models-dir", defaultValue = "tests/models", paramLabel = "DIR",
            description = "Every .tflite file in it is measured (default: ${DEFAULT-VALUE}).")
    public Path modelsDirectory;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "N",
            description = "Unmeasured runs before each timing (default: ${DEFAULT-VALUE}).")
    public int warmup;

    @Option(names = "--runs", defaultValue = "9", paramLabel = "N",
            description = "Timed samples, of which the median is kept (default: ${DEFAULT-VALUE}).")
    public int runs;

    /** The same options on another command line. */
    public List<String> asArguments() {
        return List.of("--models-dir", modelsDirectory.toString(), "--warmup", String.valueOf(warmup), "--runs",
                String.valueOf(runs));
    }
}
