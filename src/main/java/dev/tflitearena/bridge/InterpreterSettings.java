package dev.tflitearena.bridge;

/**
 * How to build an interpreter. {@code xnnpack} picks TFLite's default {@code BuiltinOpResolver}, which
 * delegates float graphs to XNNPACK; without it, {@code BuiltinOpResolverWithoutDefaultDelegates} runs the
 * builtin kernels alone. Every figure the project reports names which one it used. {@code threads} of
 * {@link #DEFAULT_THREADS} leaves TFLite's own default; it matters to the plan, as some kernels (CONV_2D)
 * add persistent temporaries only when they may run on several threads.
 */
public record InterpreterSettings(boolean xnnpack, boolean preserveAllTensors, int threads) {
    public static final int DEFAULT_THREADS = -1;
    public static final InterpreterSettings DEFAULT = new InterpreterSettings(false, false, DEFAULT_THREADS);

    public InterpreterSettings {
        if (threads < 1 && threads != DEFAULT_THREADS) {
            throw new IllegalArgumentException("threads must be at least 1, or " + DEFAULT_THREADS
                    + " for TFLite's default; got " + threads);
        }
    }

    public InterpreterSettings withXnnpack(boolean on) {
        return new InterpreterSettings(on, preserveAllTensors, threads);
    }

    public InterpreterSettings withPreserveAllTensors(boolean on) {
        return new InterpreterSettings(xnnpack, on, threads);
    }

    /** The resolver's name, as figures are labelled. */
    public String resolverName() {
        return xnnpack ? "BuiltinOpResolver (XNNPACK)" : "BuiltinOpResolverWithoutDefaultDelegates";
    }
}
