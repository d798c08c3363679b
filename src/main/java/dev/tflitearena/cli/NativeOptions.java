package dev.tflitearena.cli;

import dev.tflitearena.bridge.InterpreterSettings;
import picocli.CommandLine.Option;

/** The interpreter options of every command that builds a native interpreter. */
final class NativeOptions {
    @Option(names = "--xnnpack", description = "Use TFLite's default BuiltinOpResolver, which delegates float "
            + "graphs to XNNPACK (default: BuiltinOpResolverWithoutDefaultDelegates).")
    boolean xnnpack;

    @Option(names = "--preserve-all-tensors", description = "Build the interpreter with preserve_all_tensors: "
            + "no tensor's memory is reused.")
    boolean preserveAllTensors;

    InterpreterSettings settings() {
        return InterpreterSettings.DEFAULT.withXnnpack(xnnpack).withPreserveAllTensors(preserveAllTensors);
    }
}
