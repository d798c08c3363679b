package dev.tflitearena.bridge.presets;

/** A native TFLite call that failed, or native input it refused; the message names the call and the model. */
public class NativeException extends RuntimeException {
    public NativeException(String message) {
        super(message);
    }
}
