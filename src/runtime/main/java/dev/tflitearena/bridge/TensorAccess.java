package dev.tflitearena.bridge;

import dev.tflitearena.graph.Tensor;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What serving a model needs of a {@link NativeInterpreter} beyond planning: describing outputs, resizing
 * inputs, and the graph inputs' and outputs' memory as buffers, so that callers copy once, not through arrays.
 */
public final class TensorAccess {
    private TensorAccess() {
    }

    /** The i-th graph output as the planners see it: name, type, shape, bytes. */
    public static Tensor outputTensor(NativeInterpreter interpreter, int i) {
        int index = interpreter.live().outputs().get(i);
        return GraphSnapshot.tensor(interpreter.live().tensor(index), index);
    }

    /**
     * Gives the i-th graph input a new shape. Only before the first allocation: a Java plan is made for one
     * set of shapes, so a new shape takes a new interpreter and a new plan.
     */
    public static void resizeInput(NativeInterpreter interpreter, int i, int[] shape) {
        int index = interpreter.live().inputs().get(i);
        String what = interpreter.model().path() + ": ResizeInputTensor of input " + i;
        TfLiteStatus.check(TfLiteStatus.call(() -> interpreter.live().ResizeInputTensor(index, shape), what), what);
    }

    /** The i-th graph input's memory, in native byte order; valid until the interpreter closes. */
    public static ByteBuffer inputData(NativeInterpreter interpreter, int i) {
        return view(interpreter.live().input_tensor(i), interpreter, "input " + i);
    }

    /** The i-th graph output's memory, in native byte order; valid until the interpreter closes. */
    public static ByteBuffer outputData(NativeInterpreter interpreter, int i) {
        return view(interpreter.live().output_tensor(i), interpreter, "output " + i);
    }

    private static ByteBuffer view(TfLiteTensor tensor, NativeInterpreter interpreter, String what) {
        BytePointer raw = tensor.data().raw();
        if (raw == null || raw.isNull()) {
            throw new IllegalStateException(interpreter.model().path() + ": " + what
                    + " has no memory; allocate tensors first");
        }
        return raw.capacity(tensor.bytes()).limit(tensor.bytes()).asByteBuffer().order(ByteOrder.nativeOrder());
    }
}
