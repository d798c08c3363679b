package dev.tflitearena.bridge.presets;

import java.util.function.IntSupplier;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/** Checks the {@code TfLiteStatus} every native call returns. */
public final class TfLiteStatus {
    private TfLiteStatus() {
    }

    /**
     * Makes a native call that may throw a C++ exception, which JavaCPP hands over as a bare RuntimeException
     * whose message is the exception's what(): std::bad_alloc when a model's sizes exhaust memory.
     */
    public static int call(IntSupplier call, String what) {
        try {
            return call.getAsInt();
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            throw new NativeException(what + " threw " + message + (message.contains("bad_alloc")
                    ? ": TFLite ran out of memory, as the model's tensors are too large to allocate" : ""));
        }
    }

    public static void check(int status, String what) {
        if (status != kTfLiteOk) {
            throw new NativeException(what + " failed with TfLiteStatus " + status
                    + " (TFLite's own message, if any, is on standard error)");
        }
    }
}
