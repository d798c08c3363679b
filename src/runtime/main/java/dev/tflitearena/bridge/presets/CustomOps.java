package dev.tflitearena.bridge.presets;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteContext;
import org.bytedeco.tensorflowlite.TfLiteNode;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * Registrations of the project's own kernels: TFLite custom ops whose work is in prepare and, for some, in
 * invoke. The invoke of those that do nothing there is one callback object for all of them, kept in a static
 * field: JavaCPP has few callback slots per class, and a collected callback would leave TFLite calling a
 * freed thunk.
 */
public final class CustomOps {
    public static final int BUILTIN_OPERATOR_CUSTOM = 32;
    private static final NoOpInvoke INVOKE = new NoOpInvoke();

    private CustomOps() {
    }

    /** {@code name} and {@code prepare} must outlive every interpreter using the registration. */
    public static TfLiteRegistration registration(BytePointer name,
                                                  TfLiteRegistration.Prepare_TfLiteContext_TfLiteNode prepare) {
        return registration(name, prepare, INVOKE);
    }

    /** As above, with an invoke of its own, which must outlive them too. */
    public static TfLiteRegistration registration(BytePointer name,
                                                  TfLiteRegistration.Prepare_TfLiteContext_TfLiteNode prepare,
                                                  TfLiteRegistration.Invoke_TfLiteContext_TfLiteNode invoke) {
        TfLiteRegistration registration = new TfLiteRegistration();
        registration.builtin_code(BUILTIN_OPERATOR_CUSTOM);
        registration.custom_name(name);
        registration.version(1);
        registration.prepare(prepare);
        registration.invoke(invoke);
        return registration;
    }

    /** Appends a node of {@code registration} without tensors to the end of {@code subgraph}'s execution plan. */
    public static int append(Subgraph subgraph, TfLiteRegistration registration, String what) {
        int[] nodeIndex = new int[1];
        TfLiteStatus.check(subgraph.AddNodeWithParameters(new int[0], new int[0], new int[0], (BytePointer) null, 0,
                null, registration, nodeIndex), what);
        return nodeIndex[0];
    }

    private static final class NoOpInvoke extends TfLiteRegistration.Invoke_TfLiteContext_TfLiteNode {
        @Override
        public int call(TfLiteContext context, TfLiteNode node) {
            return kTfLiteOk;
        }
    }
}
