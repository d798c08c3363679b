package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Which models a release is measured on: shared by 'release-report', 'releases' and 'release-round'. */
public final class MeasurementOptions {
    @Option(names = "--models-dir", defaultValue = "tests/models", paramLabel = "DIR",
            description = "Every .tflite file in it is measured (default: ${DEFAULT-VALUE}).")
    public Path modelsDirectory;
}
