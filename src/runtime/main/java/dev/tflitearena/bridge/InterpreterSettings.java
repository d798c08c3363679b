package dev.tflitearena.bridge;

import dev.tflitearena.graph.TfliteRelease;

/**
 * How to build an interpreter. {@code xnnpack} picks TFLite's default {@code BuiltinOpResolver}, which
 * delegates float graphs to XNNPACK; without it, {@code BuiltinOpResolverWithoutDefaultDelegates} runs the
 * builtin kernels alone. Every figure the project reports names which one it used. {@code threads} of
 * {@link #DEFAULT_THREADS} leaves TFLite's own default; it matters to the plan, as some kernels (CONV_2D)
 * add persistent temporaries only when they may run on several threads. {@code release} names the TFLite
 * release whose planner rules a snapshot is planned with; null, the default, takes the loaded library's own
 * ({@link NativeRelease}). The native plan is always read as the library's own release, or as {@code release}
 * when the project does not know the library's.
 */
public record InterpreterSettings(boolean xnnpack, boolean preserveAllTensors, int threads, TfliteRelease release) {
    public static final int DEFAULT_THREADS = -1;
    public static final InterpreterSettings DEFAULT = new InterpreterSettings(false, false, DEFAULT_THREADS, null);

    public InterpreterSettings {
        if (threads < 1 && threads != DEFAULT_THREADS) {
            throw new IllegalArgumentException("threads must be at least 1, or " + DEFAULT_THREADS
                    + " for TFLite's default; got " + threads);
        }
    }

    public InterpreterSettings withXnnpack(boolean on) {
        return new InterpreterSettings(on, preserveAllTensors, threads, release);
    }

    public InterpreterSettings withPreserveAllTensors(boolean on) {
        return new InterpreterSettings(xnnpack, on, threads, release);
    }

    /** Plans snapshots under {@code other}'s rules instead of the loaded library's; null restores those. */
    public InterpreterSettings withRelease(TfliteRelease other) {
        return new InterpreterSettings(xnnpack, preserveAllTensors, threads, other);
    }

    /** The release in effect: the one asked for, else the loaded library's. */
    public TfliteRelease effectiveRelease() {
        return release != null ? release : NativeRelease.loaded();
    }

    /** The resolver's name, as figures are labelled. */
    public String resolverName() {
        return xnnpack ? "BuiltinOpResolver (XNNPACK)" : "BuiltinOpResolverWithoutDefaultDelegates";
    }
}
