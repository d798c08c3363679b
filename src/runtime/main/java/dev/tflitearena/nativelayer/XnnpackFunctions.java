package dev.tflitearena.nativelayer;

/**
 * XNNPACK's C functions the presets' library exports and the Java presets do not map (native/xnnpack.cc):
 * its delegate with options, and its weights cache. Addresses are raw native pointers; the bridge's
 * XnnpackDelegate and XnnpackWeightsCache own them.
 */
public final class XnnpackFunctions {
    private XnnpackFunctions() {
    }

    /**
     * A delegate of {@code threads} threads and {@code flags} (TFLITE_XNNPACK_DELEGATE_FLAG_*), packing its
     * weights into the cache at {@code cache} (0: none); fails when the delegate did not take the flags
     * (where the release tells a delegate's flags: all but 2.12).
     */
    public static long createDelegate(int threads, int flags, long cache) {
        NativeLayer.requireLoaded("an XNNPACK delegate with options");
        return create(threads, flags, cache);
    }

    /** The flags of the release's default options ({@code TfLiteXNNPackDelegateOptionsDefault()}). */
    public static int defaultFlags() {
        NativeLayer.requireLoaded("an XNNPACK delegate with options");
        return defaultFlags0();
    }

    public static void deleteDelegate(long delegate) {
        delete(delegate);
    }

    public static long createWeightsCache() {
        NativeLayer.requireLoaded("an XNNPACK weights cache");
        return cacheCreate();
    }

    /** Soft finalization lets delegates still be created with the cache; hard does not. */
    public static boolean finalizeWeightsCache(long cache, boolean hard) {
        return cacheFinalize(cache, hard);
    }

    public static void deleteWeightsCache(long cache) {
        cacheDelete(cache);
    }

    private static native long create(int threads, int flags, long cache);

    private static native int defaultFlags0();

    private static native void delete(long delegate);

    private static native long cacheCreate();

    private static native boolean cacheFinalize(long cache, boolean hard);

    private static native void cacheDelete(long cache);
}
