package dev.tflitearena.bridge;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.TfLiteContext;
import org.bytedeco.tensorflowlite.TfLiteNode;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * Registrations of the project's own kernels: TFLite custom ops whose work is all in prepare and whose invoke
 * does nothing. That invoke is one callback object for all of them, kept in a static field: JavaCPP has few
 * callback slots per class, and a collected callback would leave TFLite calling a freed thunk.
 */
final class CustomOps {
    static final int BUILTIN_OPERATOR_CUSTOM = 32;
    private static final NoOpInvoke INVOKE = new NoOpInvoke();

    private CustomOps() {
    }

    /** {@code name} and {@code prepare} must outlive every interpreter using the registration. */
    static TfLiteRegistration registration(BytePointer name, TfLiteRegistration.Prepare_TfLiteContext_TfLiteNode prepare) {
        TfLiteRegistration registration = new TfLiteRegistration();
        registration.builtin_code(BUILTIN_OPERATOR_CUSTOM);
        registration.custom_name(name);
        registration.version(1);
        registration.prepare(prepare);
        registration.invoke(INVOKE);
        return registration;
    }

    private static final class NoOpInvoke extends TfLiteRegistration.Invoke_TfLiteContext_TfLiteNode {
        @Override
        public int call(TfLiteContext context, TfLiteNode node) {
            return kTfLiteOk;
        }
    }
}
