package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.SharedNativeResource;
import dev.tflitearena.nativelayer.XnnpackFunctions;

/**
 * XNNPACK's weights cache: delegates created with the same cache (through {@link XnnpackOptions}) share the
 * weights they pack instead of each packing its own copy, across interpreters and sessions. The first
 * interpreter that applies a delegate with it finalizes it softly, so that later ones (any number of them)
 * still find and add their packed weights. Closing it frees it only once the last delegate using it has been
 * deleted.
 */
public final class XnnpackWeightsCache extends SharedNativeResource {
    private final long address;
    private boolean finalized;

    private XnnpackWeightsCache(long address) {
        this.address = address;
    }

    public static XnnpackWeightsCache create() {
        long address = XnnpackFunctions.createWeightsCache();
        if (address == 0) {
            throw new NativeException("TfLiteXNNPackDelegateWeightsCacheCreate returned no cache");
        }
        return new XnnpackWeightsCache(address);
    }

    long address() {
        return address;
    }

    /** After a delegate with this cache has packed its weights: XNNPACK runs only on a finalized cache. */
    synchronized void weightsPacked() {
        if (!finalized) {
            if (!XnnpackFunctions.finalizeWeightsCache(address, false)) {
                throw new NativeException("TfLiteXNNPackDelegateWeightsCacheFinalizeSoft failed");
            }
            finalized = true;
        }
    }

    @Override
    protected void free() {
        XnnpackFunctions.deleteWeightsCache(address);
    }

    @Override
    protected String describe() {
        return "XNNPACK weights cache";
    }
}
