package dev.tflitearena.bridge.presets;

import org.bytedeco.javacpp.Pointer;

/** A pointer to an address the native layer returned, to hand to the presets' classes. */
public final class NativeAddress extends Pointer {
    public NativeAddress(long address) {
        this.address = address;
    }
}
