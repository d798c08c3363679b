package dev.tflitearena.cli.options;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.XnnpackOptions;
import dev.tflitearena.graph.TfliteRelease;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The interpreter options of every command that builds a native interpreter. */
public final class NativeOptions {
    @Mixin
    public XnnpackOption xnnpack;

    @Option(names = "--preserve-all-tensors", description = "Build the interpreter with preserve_all_tensors: "
            + "no tensor's memory is reused.")
    public boolean preserveAllTensors;

    @Option(names = "--tflite-release", paramLabel = "X.Y", description = "Plan under this TFLite release's rules "
            + "(e.g. 2.12) instead of those of the loaded library's release, which the native plan is still read "
            + "as (unless the library's release is unknown).")
    public String release;

    public InterpreterSettings settings() {
        InterpreterSettings settings = InterpreterSettings.DEFAULT.withXnnpack(xnnpack.on)
                .withPreserveAllTensors(preserveAllTensors)
                .withRelease(release == null ? null : TfliteRelease.of(release));
        Integer threads = xnnpack.threads();
        return threads == null ? settings : settings.withXnnpackOptions(XnnpackOptions.threads(threads));
    }
}
