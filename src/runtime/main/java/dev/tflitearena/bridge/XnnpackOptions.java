package dev.tflitearena.bridge;

/**
 * XNNPACK's delegate built by the project instead of TFLite's default one: its thread count, its
 * TFLITE_XNNPACK_DELEGATE_FLAG_* {@code flags} ({@link #DEFAULT_FLAGS}: the release's default options': QS8
 * and QU8 on 2.20, none before, so that quantized graphs stay on TFLite's kernels there), and a
 * {@code weightsCache} several delegates share (null: none). Every release from 2.12 to 2.20 has the three flags.
 */
public record XnnpackOptions(int threads, int flags, XnnpackWeightsCache weightsCache) {
    /** Signed 8-bit quantized operators. */
    public static final int FLAG_QS8 = 0x1;
    /** Unsigned 8-bit quantized operators. */
    public static final int FLAG_QU8 = 0x2;
    /** Float operators in FP16. */
    public static final int FLAG_FORCE_FP16 = 0x4;
    public static final int DEFAULT_FLAGS = -1;

    public XnnpackOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("XNNPACK threads must be at least 1; got " + threads);
        }
        if (flags != DEFAULT_FLAGS && (flags & ~(FLAG_QS8 | FLAG_QU8 | FLAG_FORCE_FP16)) != 0) {
            throw new IllegalArgumentException("unknown XNNPACK flags 0x" + Integer.toHexString(flags)
                    + ": combine FLAG_QS8, FLAG_QU8 and FLAG_FORCE_FP16");
        }
    }

    /** {@code threads} threads, the release's default flags, no weights cache. */
    public static XnnpackOptions threads(int threads) {
        return new XnnpackOptions(threads, DEFAULT_FLAGS, null);
    }

    public XnnpackOptions withFlags(int other) {
        return new XnnpackOptions(threads, other, weightsCache);
    }

    public XnnpackOptions withWeightsCache(XnnpackWeightsCache cache) {
        return new XnnpackOptions(threads, flags, cache);
    }

    @Override
    public String toString() {
        return "XNNPACK delegate, " + threads + (threads == 1 ? " thread" : " threads")
                + (flags == DEFAULT_FLAGS ? "" : ", flags 0x" + Integer.toHexString(flags))
                + (weightsCache == null ? "" : ", shared weights cache");
    }
}
