package dev.tflitearena.cli;

import picocli.CommandLine.Option;

/** {@code --xnnpack-threads}, beside {@code --xnnpack} on every command that takes it. */
final class XnnpackThreadsOption {
    @Option(names = "--xnnpack-threads", paramLabel = "N", description = "With --xnnpack: XNNPACK through a "
            + "delegate of N threads that the native layer builds, instead of TFLite's default delegate and its "
            + "threads.")
    Integer threads;

    /** The thread count asked for, null if none; refuses one without {@code --xnnpack} or below 1. */
    Integer validated(boolean xnnpack) {
        if (threads == null) {
            return null;
        }
        if (!xnnpack) {
            throw new IllegalArgumentException("--xnnpack-threads " + threads + " needs --xnnpack");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--xnnpack-threads must be at least 1; got " + threads);
        }
        return threads;
    }
}
