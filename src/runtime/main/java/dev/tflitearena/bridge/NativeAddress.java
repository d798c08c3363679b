package dev.tflitearena.bridge;

import org.bytedeco.javacpp.Pointer;

/** A pointer to an address the native layer returned, to hand to the presets' classes. */
final class NativeAddress extends Pointer {
    NativeAddress(long address) {
        this.address = address;
    }
}
