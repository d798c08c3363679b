package dev.tflitearena.bridge.presets;

import dev.tflitearena.graph.TfliteRelease;
import org.bytedeco.tensorflowlite.global.tensorflowlite;

/**
 * The TFLite release of the native library on the class path, as the library itself reports it
 * ({@code TfLiteVersion()}, e.g. "2.12.0"): the presets jar is chosen at build time, so the planner rules
 * follow whatever was built in rather than a setting that could disagree with it.
 */
public final class NativeRelease {
    private NativeRelease() {
    }

    /** The library's own version string. */
    public static String version() {
        return Holder.VERSION;
    }

    /** The release whose rules the library follows; fails on a release the project has no rules for. */
    public static TfliteRelease loaded() {
        return loadedOr(null);
    }

    /** The library's release when the project knows it, else {@code assumed} when not null. */
    public static TfliteRelease loadedOr(TfliteRelease assumed) {
        if (Holder.RELEASE != null) {
            return Holder.RELEASE;
        }
        if (assumed != null) {
            return assumed;
        }
        throw new NativeException("the native library is TFLite " + version() + ": " + Holder.UNKNOWN
                + " (--tflite-release picks the rules to assume)");
    }

    /** Read once: every snapshot asks, and parsing the version costs a good part of a small model's snapshot. */
    private static final class Holder {
        static final String VERSION = tensorflowlite.TfLiteVersion().getString();
        static final TfliteRelease RELEASE;
        static final String UNKNOWN;

        static {
            TfliteRelease release = null;
            String unknown = null;
            try {
                release = TfliteRelease.of(VERSION);
            } catch (IllegalArgumentException e) {
                unknown = e.getMessage();
            }
            RELEASE = release;
            UNKNOWN = unknown;
        }
    }
}
