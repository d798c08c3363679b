package dev.tflitearena.bridge;

import dev.tflitearena.graph.Allocation;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.tensorflowlite.TfLiteIntArray;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRw;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRwPersistent;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCustom;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteDynamic;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteMemNone;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteMmapRo;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteNonCpu;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLitePersistentRo;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteVariantObject;

/** Reading the native structures the snapshot and the plan reader share. */
final class NativeTensors {
    private NativeTensors() {
    }

    static Allocation allocation(int type) {
        if (type == kTfLiteArenaRw) {
            return Allocation.ARENA_RW;
        } else if (type == kTfLiteArenaRwPersistent) {
            return Allocation.ARENA_RW_PERSISTENT;
        } else if (type == kTfLiteMmapRo) {
            return Allocation.MMAP_RO;
        } else if (type == kTfLiteDynamic) {
            return Allocation.DYNAMIC;
        } else if (type == kTfLitePersistentRo) {
            return Allocation.PERSISTENT_RO;
        } else if (type == kTfLiteCustom) {
            return Allocation.CUSTOM;
        } else if (type == kTfLiteVariantObject) {
            return Allocation.VARIANT_OBJECT;
        } else if (type == kTfLiteNonCpu) {
            return Allocation.NON_CPU;
        } else if (type == kTfLiteMemNone) {
            return Allocation.NONE;
        }
        throw new NativeException("unknown TfLiteAllocationType " + type);
    }

    /** The tensor's data pointer as an address, 0 when null. */
    static long dataAddress(TfLiteTensor tensor) {
        BytePointer raw = tensor.data().raw();
        return raw == null ? 0 : raw.address();
    }

    static int[] ints(TfLiteIntArray array) {
        if (array == null || array.isNull()) {
            return new int[0];
        }
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.data(i);
        }
        return values;
    }

    /** A std::vector<int> as the presets return it: null when empty, else sized by its capacity. */
    static int[] ints(IntPointer vector) {
        if (vector == null || vector.isNull()) {
            return new int[0];
        }
        int[] values = new int[(int) vector.capacity()];
        vector.get(values);
        return values;
    }
}
