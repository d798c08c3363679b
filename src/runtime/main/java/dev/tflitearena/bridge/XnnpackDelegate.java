package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeAddress;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.nativelayer.XnnpackFunctions;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.TfLiteDelegate;

/**
 * An XNNPACK delegate of {@link XnnpackOptions}, applied to one interpreter, which it must outlive. Its weights
 * cache, if any, is held by that interpreter ({@link NativeInterpreter}) from its build until after this closes.
 */
final class XnnpackDelegate implements AutoCloseable {
    private final long address;

    private XnnpackDelegate(long address) {
        this.address = address;
    }

    /** Creates the delegate and lets it take over the interpreter's graph (ModifyGraphWithDelegate). */
    static XnnpackDelegate apply(Interpreter interpreter, XnnpackOptions options, String what) {
        XnnpackWeightsCache cache = options.weightsCache();
        long address;
        try {
            int flags = options.flags() == XnnpackOptions.DEFAULT_FLAGS ? XnnpackFunctions.defaultFlags()
                    : options.flags();
            address = XnnpackFunctions.createDelegate(options.threads(), flags, cache == null ? 0 : cache.address());
        } catch (RuntimeException e) {
            throw new NativeException(what + ": " + e.getMessage());
        }
        XnnpackDelegate delegate = new XnnpackDelegate(address);
        try {
            String call = what + ": ModifyGraphWithDelegate (" + options + ")";
            TfLiteStatus.check(TfLiteStatus.call(() -> interpreter.ModifyGraphWithDelegate(
                    new TfLiteDelegate(new NativeAddress(address))), call), call);
            if (cache != null) {
                cache.weightsPacked();
            }
            return delegate;
        } catch (RuntimeException e) {
            delegate.close();
            throw e;
        }
    }

    @Override
    public void close() {
        XnnpackFunctions.deleteDelegate(address);
    }
}
