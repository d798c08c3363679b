package dev.tflitearena.bridge.presets;

import org.bytedeco.tensorflowlite.TfLiteRegistration;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The one place where the presets' API differs between the TFLite releases the project runs on
 * (2.12.0-1.5.9 to 2.20.0-1.5.13). Members that only newer releases have are looked up once, by reflection.
 */
public final class ReleaseApi {
    /** {@code TfLiteRegistration::inplace_operator}, added in TFLite 2.13 with in-place tensor sharing. */
    private static final MethodHandle INPLACE_OPERATOR = find("inplace_operator", MethodType.methodType(long.class));
    private static final MethodHandle SET_INPLACE_OPERATOR = find("inplace_operator",
            MethodType.methodType(TfLiteRegistration.class, long.class));

    private ReleaseApi() {
    }

    /** The registration's in-place flags; 0 on a release that has none. */
    public static int inplaceOperator(TfLiteRegistration registration) {
        if (INPLACE_OPERATOR == null) {
            return 0;
        }
        try {
            return (int) (long) INPLACE_OPERATOR.invoke(registration);
        } catch (Throwable e) {
            throw new NativeException("reading inplace_operator: " + e);
        }
    }

    /** Sets the registration's in-place flags; refuses flags a release without in-place sharing cannot hold. */
    public static void setInplaceOperator(TfLiteRegistration registration, long flags) {
        if (SET_INPLACE_OPERATOR == null) {
            if (flags != 0) {
                throw new NativeException("this TFLite release has no in-place operators (inplace_operator)");
            }
            return;
        }
        try {
            SET_INPLACE_OPERATOR.invoke(registration, flags);
        } catch (Throwable e) {
            throw new NativeException("setting inplace_operator: " + e);
        }
    }

    private static MethodHandle find(String name, MethodType type) {
        try {
            return MethodHandles.publicLookup().findVirtual(TfLiteRegistration.class, name, type);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
