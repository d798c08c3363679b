package dev.tflitearena.bridge;

import dev.tflitearena.bridge.handover.PlanHandover;
import dev.tflitearena.bridge.presets.NativeAddress;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.bridge.snapshot.GraphSnapshot;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.tflite.Quantization;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteAffineQuantization;
import org.bytedeco.tensorflowlite.TfLiteFloatArray;
import org.bytedeco.tensorflowlite.TfLiteIntArray;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.TfLiteTensorRealloc;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kDefaultTensorAlignment;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteAffineQuantization;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRw;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCustom;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteDynamic;

/**
 * A graph input or output of an interpreter, of its primary subgraph or of a signature's: what serving reads
 * and writes. It names its tensor by subgraph and index and looks the native struct up on every call, as
 * TFLite moves its tensors when a kernel adds some.
 */
public final class IoTensor {
    private final NativeInterpreter interpreter;
    private final int subgraph;
    private final int index;
    private final String what;
    /** The memory the interpreter gave the tensor before a caller's buffer was bound to it; null when unbound. */
    private Pointer own;
    /** The caller's buffer bound to the tensor, held so that it lives as long as the binding. */
    private ByteBuffer bound;

    IoTensor(NativeInterpreter interpreter, int subgraph, int index, String what) {
        this.interpreter = interpreter;
        this.subgraph = subgraph;
        this.index = index;
        this.what = what;
    }

    /** The i-th graph input of the primary subgraph. */
    public static IoTensor input(NativeInterpreter interpreter, int i) {
        return new IoTensor(interpreter, 0, interpreter.live().inputs().get(i), "input " + i);
    }

    /** The i-th graph output of the primary subgraph. */
    public static IoTensor output(NativeInterpreter interpreter, int i) {
        return new IoTensor(interpreter, 0, interpreter.live().outputs().get(i), "output " + i);
    }

    /** Name, type, shape and bytes, as the planners see a tensor. */
    public Tensor describe() {
        return GraphSnapshot.tensor(tensor(), index);
    }

    /**
     * The tensor's affine quantization, or null when it has none: per tensor (one scale, one zero point) or per
     * channel along the quantized dimension.
     */
    public Quantization quantization() {
        TfLiteTensor tensor = tensor();
        if (tensor.quantization().type() == kTfLiteAffineQuantization && !tensor.quantization().params().isNull()) {
            TfLiteAffineQuantization affine = new TfLiteAffineQuantization(tensor.quantization().params());
            TfLiteFloatArray scales = affine.scale();
            TfLiteIntArray zeroPoints = affine.zero_point();
            if (scales != null && !scales.isNull() && scales.size() > 0) {
                float[] scale = new float[scales.size()];
                long[] zeroPoint = new long[scale.length];
                for (int i = 0; i < scale.length; i++) {
                    scale[i] = scales.data(i);
                    zeroPoint[i] = zeroPoints == null || zeroPoints.isNull() || i >= zeroPoints.size() ? 0
                            : zeroPoints.data(i);
                }
                return new Quantization(scale, zeroPoint, affine.quantized_dimension());
            }
        }
        float scale = tensor.params().scale();
        return scale == 0 ? null : Quantization.of(scale, tensor.params().zero_point());
    }

    /** The tensor's memory, in native byte order: valid until the interpreter allocates again or closes. */
    public ByteBuffer data() {
        TfLiteTensor tensor = tensor();
        if (tensor.bytes() == 0) {
            return ByteBuffer.allocate(0).order(ByteOrder.nativeOrder());
        }
        BytePointer raw = tensor.data().raw();
        if (raw == null || raw.isNull()) {
            throw new IllegalStateException(interpreter.model().path() + ": " + what + " has no memory");
        }
        return raw.capacity(tensor.bytes()).limit(tensor.bytes()).asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /**
     * Gives a tensor of dynamic memory (a string's) {@code bytes} of memory, as TFLite's own string writer does,
     * and returns it.
     */
    public ByteBuffer resizeData(long bytes) {
        TfLiteTensor tensor = tensor();
        if (tensor.allocation_type() != kTfLiteDynamic) {
            throw new IllegalStateException(interpreter.model().path() + ": " + what + " has memory of a fixed size");
        }
        String call = interpreter.model().path() + ": TfLiteTensorRealloc of " + what;
        TfLiteStatus.check(TfLiteTensorRealloc(bytes, tensor), call);
        return data();
    }

    /** Bytes a bound buffer's address must be a multiple of: TFLite's kDefaultTensorAlignment. */
    public static int alignment() {
        return kDefaultTensorAlignment();
    }

    /**
     * Points the tensor at {@code buffer}'s remaining bytes, a direct buffer of exactly the tensor's bytes (which
     * the caller checked) at an address aligned to {@link #alignment()}: TFLite then reads or writes the
     * caller's memory in place, from the next invoke on. TFLite moves a tensor that is already allocated
     * without planning again (its arena keeps the tensor's own bytes), so {@link #unbind()} can move it back.
     * Refused for a tensor whose memory TFLite does not plan (a constant, a string, a dynamic tensor).
     */
    public void bind(ByteBuffer buffer) {
        TfLiteTensor tensor = tensor();
        int allocation = tensor.allocation_type();
        if (own == null && allocation != kTfLiteArenaRw && allocation != kTfLiteCustom) {
            throw new IllegalArgumentException(interpreter.model().path() + ": " + what + " has memory of kind "
                    + NativeTensors.allocation(allocation).jsonName() + ", which TFLite does not let a caller's "
                    + "buffer replace (only planned tensors)");
        }
        // A slice starts at the buffer's position, so its address is that of the first byte bound.
        ByteBuffer slice = buffer.slice().order(buffer.order());
        long address = new BytePointer(slice).address();
        if (address % alignment() != 0) {
            throw new IllegalArgumentException(what + ": the buffer's address 0x" + Long.toHexString(address)
                    + " is not a multiple of " + alignment() + " bytes, as TFLite requires of memory it is given: "
                    + "allocate it with TensorInfo.allocateDirect(), or slice it with alignedSlice(" + alignment() + ")");
        }
        if (own == null) {
            own = new NativeAddress(tensor.data().raw().address());
        }
        PlanHandover.setCustomAllocation(subgraph(), index, new NativeAddress(address), slice.remaining(),
                interpreter.model().path() + ": " + what);
        bound = slice;
    }

    /** Moves the tensor back to the memory the interpreter gave it; nothing when no buffer is bound. */
    public void unbind() {
        if (own != null) {
            PlanHandover.setCustomAllocation(subgraph(), index, own, tensor().bytes(),
                    interpreter.model().path() + ": " + what);
            own = null;
            bound = null;
        }
    }

    /** The caller's buffer bound to the tensor (its bound bytes, from position 0), or null. */
    public ByteBuffer bound() {
        return bound;
    }

    private Subgraph subgraph() {
        return interpreter.live().subgraph(subgraph);
    }

    private TfLiteTensor tensor() {
        return subgraph().tensor(index);
    }
}
