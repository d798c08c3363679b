package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.TfliteRelease;

/**
 * How to build an interpreter. {@code xnnpack} picks TFLite's default {@code BuiltinOpResolver}, which
 * delegates float graphs to XNNPACK; without it, {@code BuiltinOpResolverWithoutDefaultDelegates} runs the
 * builtin kernels alone. Every figure the project reports names which one it used. {@code threads} of
 * {@link #DEFAULT_THREADS} leaves TFLite's own default; it matters to the plan, as some kernels (CONV_2D)
 * add persistent temporaries only when they may run on several threads. {@code release} names the TFLite
 * release whose planner rules a snapshot is planned with; null, the default, takes the loaded library's own
 * ({@link NativeRelease}). {@code xnnpackOptions}, when not null, replaces TFLite's default delegate by one of
 * those options ({@link XnnpackDelegate}). The native plan is always read as the library's own release, or as {@code release}
 * when the project does not know the library's.
 */
public record InterpreterSettings(boolean xnnpack, boolean preserveAllTensors, int threads, TfliteRelease release,
                                  XnnpackOptions xnnpackOptions) {
    public static final int DEFAULT_THREADS = -1;
    public static final InterpreterSettings DEFAULT = new InterpreterSettings(false, false, DEFAULT_THREADS, null);

    public InterpreterSettings {
        if (threads < 1 && threads != DEFAULT_THREADS) {
            throw new IllegalArgumentException("threads must be at least 1, or " + DEFAULT_THREADS
                    + " for TFLite's default; got " + threads);
        }
        if (xnnpackOptions != null && !xnnpack) {
            throw new IllegalArgumentException("XNNPACK options (" + xnnpackOptions + ") need XNNPACK on");
        }
    }

    /** With TFLite's default XNNPACK delegate when {@code xnnpack}. */
    public InterpreterSettings(boolean xnnpack, boolean preserveAllTensors, int threads, TfliteRelease release) {
        this(xnnpack, preserveAllTensors, threads, release, null);
    }

    /** Off, or on with TFLite's default XNNPACK delegate. */
    public InterpreterSettings withXnnpack(boolean on) {
        return new InterpreterSettings(on, preserveAllTensors, threads, release, null);
    }

    /**
     * XNNPACK through a delegate of these options, applied to an interpreter built without TFLite's default
     * delegate; null for TFLite's default delegate.
     */
    public InterpreterSettings withXnnpackOptions(XnnpackOptions options) {
        return new InterpreterSettings(xnnpack || options != null, preserveAllTensors, threads, release, options);
    }

    /**
     * XNNPACK (which must be on) through the project's delegate sharing {@code cache}'s packed weights: of the
     * XNNPACK options given, else of TFLite's default delegate's (its thread count: the interpreter's when
     * above 1, else 1; the release's default flags). A cache the options already name is kept.
     */
    public InterpreterSettings withSharedWeightsCache(XnnpackWeightsCache cache) {
        if (!xnnpack) {
            throw new IllegalStateException("a shared XNNPACK weights cache needs XNNPACK on");
        }
        XnnpackOptions options = xnnpackOptions != null ? xnnpackOptions : XnnpackOptions.threads(Math.max(threads, 1));
        return withXnnpackOptions(options.weightsCache() != null ? options : options.withWeightsCache(cache));
    }

    public InterpreterSettings withPreserveAllTensors(boolean on) {
        return new InterpreterSettings(xnnpack, on, threads, release, xnnpackOptions);
    }

    public InterpreterSettings withThreads(int count) {
        return new InterpreterSettings(xnnpack, preserveAllTensors, count, release, xnnpackOptions);
    }

    /** Plans snapshots under {@code other}'s rules instead of the loaded library's; null restores those. */
    public InterpreterSettings withRelease(TfliteRelease other) {
        return new InterpreterSettings(xnnpack, preserveAllTensors, threads, other, xnnpackOptions);
    }

    /** TFLite's BuiltinOpResolver, which applies its default XNNPACK delegate. */
    boolean defaultXnnpackDelegate() {
        return xnnpack && xnnpackOptions == null;
    }

    /** The release in effect: the one asked for, else the loaded library's. */
    public TfliteRelease effectiveRelease() {
        return release != null ? release : NativeRelease.loaded();
    }

    /** The resolver's name, as figures are labelled. */
    public String resolverName() {
        if (xnnpackOptions != null) {
            return "BuiltinOpResolverWithoutDefaultDelegates + " + xnnpackOptions;
        }
        return xnnpack ? "BuiltinOpResolver (XNNPACK)" : "BuiltinOpResolverWithoutDefaultDelegates";
    }
}
