package dev.tflitearena.bridge.presets;

import dev.tflitearena.graph.Allocation;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.tensorflowlite.TfLiteIntArray;
import org.bytedeco.tensorflowlite.TfLiteTensor;

/** Reading the native structures the snapshot and the plan reader share. */
public final class NativeTensors {
    private NativeTensors() {
    }

    /**
     * TFLite's {@code TfLiteAllocationType} by value: its declaration order has only grown at the end over
     * the releases (2.12 stops at kTfLiteCustom), and older presets lack the newer constants.
     */
    private static final Allocation[] BY_NATIVE_VALUE = {Allocation.NONE, Allocation.MMAP_RO, Allocation.ARENA_RW,
            Allocation.ARENA_RW_PERSISTENT, Allocation.DYNAMIC, Allocation.PERSISTENT_RO, Allocation.CUSTOM,
            Allocation.VARIANT_OBJECT, Allocation.NON_CPU};

    public static Allocation allocation(int type) {
        if (type < 0 || type >= BY_NATIVE_VALUE.length) {
            throw new NativeException("unknown TfLiteAllocationType " + type);
        }
        return BY_NATIVE_VALUE[type];
    }

    /** The tensor's data pointer as an address, 0 when null. */
    public static long dataAddress(TfLiteTensor tensor) {
        BytePointer raw = tensor.data().raw();
        return raw == null ? 0 : raw.address();
    }

    public static int[] ints(TfLiteIntArray array) {
        if (array == null || array.isNull()) {
            return new int[0];
        }
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.data(i);
        }
        return values;
    }

    /** A {@code std::vector<int>} as the presets return it: null when empty, else sized by its capacity. */
    public static int[] ints(IntPointer vector) {
        if (vector == null || vector.isNull()) {
            return new int[0];
        }
        int[] values = new int[(int) vector.capacity()];
        vector.get(values);
        return values;
    }
}
