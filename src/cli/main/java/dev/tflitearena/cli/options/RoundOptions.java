package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

import java.util.List;

/** How one round of an interleaved comparison times a model: shared by 'release-round' and 'releases --compare'. */
public final class RoundOptions {
    @Option(names = "--warmup", defaultValue = "2", paramLabel = "N",
            description = "Unmeasured samples before each metric's samples (default: ${DEFAULT-VALUE}).")
    public int warmup;

    @Option(names = "--samples", defaultValue = "5", paramLabel = "N",
            description = "Samples per metric and model in a round, of which the round keeps the fastest; a sample "
                    + "lasts at least 20 ms, a faster action repeated within it (default: ${DEFAULT-VALUE}).")
    public int samples;

    @Option(names = "--metrics", split = ",", paramLabel = "METRIC",
            description = "What to time: invoke, native_setup, java_plan, ops (default: all).")
    public List<String> metrics = List.of("invoke", "native_setup", "java_plan", "ops");

    /** The same options on another command line. */
    public List<String> asArguments() {
        return List.of("--warmup", String.valueOf(warmup), "--samples", String.valueOf(samples), "--metrics",
                String.join(",", metrics));
    }
}
