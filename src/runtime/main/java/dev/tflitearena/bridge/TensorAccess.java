package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.graph.Tensor;

/**
 * What serving a model needs of a {@link NativeInterpreter} beyond planning: describing outputs and resizing
 * inputs; {@link IoTensor} reads and writes their memory.
 */
public final class TensorAccess {
    private TensorAccess() {
    }

    /** The i-th graph output as the planners see it: name, type, shape, bytes. */
    public static Tensor outputTensor(NativeInterpreter interpreter, int i) {
        return IoTensor.output(interpreter, i).describe();
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
}
