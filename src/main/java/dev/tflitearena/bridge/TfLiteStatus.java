package dev.tflitearena.bridge;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/** Checks the {@code TfLiteStatus} every native call returns. */
final class TfLiteStatus {
    private TfLiteStatus() {
    }

    static void check(int status, String what) {
        if (status != kTfLiteOk) {
            throw new NativeException(what + " failed with TfLiteStatus " + status
                    + " (TFLite's own message, if any, is on standard error)");
        }
    }
}
