package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

/** {@code --xnnpack} and its {@code --xnnpack-threads}, of every command that builds a native interpreter. */
public final class XnnpackOption {
    @Option(names = "--xnnpack", description = "Use TFLite's default BuiltinOpResolver, which delegates float "
            + "graphs to XNNPACK (default: BuiltinOpResolverWithoutDefaultDelegates).")
    public boolean on;

    @Option(names = "--xnnpack-threads", paramLabel = "N", description = "With --xnnpack: XNNPACK through a "
            + "delegate of N threads that the native layer builds, instead of TFLite's default delegate and its "
            + "threads.")
    Integer threads;

    /** The thread count asked for, null if none; refuses one without {@code --xnnpack} or below 1. */
    public Integer threads() {
        if (threads == null) {
            return null;
        }
        if (!on) {
            throw new IllegalArgumentException("--xnnpack-threads " + threads + " needs --xnnpack");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--xnnpack-threads must be at least 1; got " + threads);
        }
        return threads;
    }
}
