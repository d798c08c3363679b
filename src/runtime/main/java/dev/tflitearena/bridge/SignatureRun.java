package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.SignatureRunner;
import org.bytedeco.tensorflowlite.StringIntMap;
import org.bytedeco.tensorflowlite.StringVector;

import java.util.ArrayList;
import java.util.List;

/**
 * One of a model's signatures on an interpreter, through TFLite's {@code SignatureRunner}: its key, its inputs
 * and outputs under the signature's names (in name order, as TFLite keeps them), run on the subgraph it names.
 * TFLite allocates that subgraph's tensors at the signature's first run; the primary subgraph's are allocated
 * with the interpreter.
 */
public final class SignatureRun {
    private final NativeInterpreter interpreter;
    private final String key;
    private final SignatureRunner runner;
    private final List<String> inputNames;
    private final List<String> outputNames;
    private final List<IoTensor> inputs = new ArrayList<>();
    private final List<IoTensor> outputs = new ArrayList<>();
    private boolean allocated;

    private SignatureRun(NativeInterpreter interpreter, String key) {
        Interpreter live = interpreter.live();
        this.interpreter = interpreter;
        this.key = key;
        this.runner = live.GetSignatureRunner(key);
        if (runner == null || runner.isNull()) {
            throw new NativeException(interpreter.model().path() + ": TFLite gives no runner for signature '" + key
                    + "'");
        }
        int subgraph = live.GetSubgraphIndexFromSignature(key);
        this.inputNames = names(runner.input_names(), runner.input_size());
        this.outputNames = names(runner.output_names(), runner.output_size());
        StringIntMap inputIndices = live.signature_inputs(key);
        StringIntMap outputIndices = live.signature_outputs(key);
        for (String name : inputNames) {
            inputs.add(new IoTensor(interpreter, subgraph, inputIndices.get(name),
                    "signature '" + key + "' input '" + name + "'"));
        }
        for (String name : outputNames) {
            outputs.add(new IoTensor(interpreter, subgraph, outputIndices.get(name),
                    "signature '" + key + "' output '" + name + "'"));
        }
    }

    /** The model's signature keys, in the model's order; empty when it has none. */
    public static List<String> keys(NativeInterpreter interpreter) {
        // A copy TFLite returns by value: closed here rather than left to the collector.
        try (StringVector keys = interpreter.live().signature_keys()) {
            List<String> names = new ArrayList<>();
            for (long i = 0; i < keys.size(); i++) {
                names.add(keys.get(i).getString());
            }
            return names;
        }
    }

    /** The signature of that key; refused with the model's keys when it has none of that key. */
    public static SignatureRun of(NativeInterpreter interpreter, String key) {
        List<String> keys = keys(interpreter);
        if (!keys.contains(key)) {
            throw new IllegalArgumentException("no signature '" + key + "'; the model's signatures are " + keys);
        }
        return new SignatureRun(interpreter, key);
    }

    public String key() {
        return key;
    }

    public List<String> inputNames() {
        return inputNames;
    }

    public List<String> outputNames() {
        return outputNames;
    }

    /** The inputs, in {@link #inputNames()} order. */
    public List<IoTensor> inputs() {
        return inputs;
    }

    /** The outputs, in {@link #outputNames()} order. */
    public List<IoTensor> outputs() {
        return outputs;
    }

    /** Allocates the signature's subgraph before its first run; nothing after. */
    public void allocate() {
        if (!allocated) {
            String what = interpreter.model().path() + ": AllocateTensors of signature '" + key + "'";
            TfLiteStatus.check(TfLiteStatus.call(runner::AllocateTensors, what), what);
            allocated = true;
        }
    }

    public void invoke() {
        allocate();
        String what = interpreter.model().path() + ": Invoke of signature '" + key + "'";
        TfLiteStatus.check(TfLiteStatus.call(runner::Invoke, what), what);
    }

    private static List<String> names(PointerPointer<?> names, long count) {
        List<String> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(names.getString(i));
        }
        return list;
    }
}
