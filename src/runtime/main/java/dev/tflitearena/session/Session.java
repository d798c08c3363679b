package dev.tflitearena.session;

import dev.tflitearena.bridge.IoTensor;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.SignatureRun;
import dev.tflitearena.bridge.sharing.PersistentTensors;
import dev.tflitearena.nativelayer.OpProfiler;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One interpreter of a model, for one caller at a time: every method is synchronized, so {@link #close()}
 * waits for a run in progress. Create it with {@link TfLiteModel#newSession}; serve concurrent callers with
 * a {@link SessionPool}.
 *
 * <p>A run copies the caller's values into the inputs and the outputs out, unless the caller binds buffers of
 * its own to them ({@link #bindInput}, {@link #bindOutput}), which TFLite then reads and writes in place, or
 * reads an output where it lies ({@link #outputView}). A run may read some outputs only
 * ({@link #run(Map, Set)}). A model's signatures ({@link #signatureKeys()}) run by key, with the signature's
 * own names for its inputs and outputs ({@link #runSignature}). With profiling on ({@link #enableProfiling()}), each
 * run times every node it invokes ({@link #lastRunProfile()}).
 */
public final class Session implements AutoCloseable {
    /** The node invocations a profiled run keeps ({@link RunProfile#dropped()} counts those past it). */
    public static final int PROFILE_CAPACITY = 1 << 14;
    /** What takes the inputs and gives the outputs of a plain run, in messages. */
    private static final String MODEL = "the model";
    private InterpreterRecipe recipe;
    /** Volatile for {@link #cancel()}, which reads it without the lock a run holds. */
    private volatile NativeInterpreter interpreter;
    private List<TensorInfo> inputs;
    private List<TensorInfo> outputs;
    private List<IoTensor> inputTensors;
    private List<IoTensor> outputTensors;
    private final Map<String, Signature> signatures = new HashMap<>();
    private boolean closed;
    private final RunStats stats = new RunStats();
    /** Null while profiling is off: the interpreter then has no profiler, and TFLite times nothing. */
    private OpProfiler profiler;

    /** A signature's runner and what it takes and gives, under the signature's names. */
    private record Signature(SignatureRun run, List<TensorInfo> inputs, List<TensorInfo> outputs) {
    }

    Session(InterpreterRecipe recipe) {
        use(recipe);
    }

    /** The model's graph inputs (of its primary subgraph), in order, with their current shapes. */
    public synchronized List<TensorInfo> inputs() {
        checkOpen();
        return inputs;
    }

    /** The model's graph outputs (of its primary subgraph), in order, with their shapes as last known. */
    public synchronized List<TensorInfo> outputs() {
        checkOpen();
        return outputs;
    }

    /**
     * Runs the model on one value per input, in input order, and reads every output. A value is a Java array
     * of the input's type with one value per element of its shape: float[] for float32, float16 and bfloat16
     * (converted, rounding to nearest even); double[] for float64; byte[] for int8 and uint8; short[] for int16
     * and uint16; int[] for int32 and uint32; long[] for int64 and uint64 (unsigned types in the signed type of
     * their width); boolean[] for bool; String[] for string (UTF-8); for complex64 and complex128, float[] and
     * double[] of two values per element, real and imaginary parts in turn. Or it is a direct ByteBuffer of
     * exactly the input's bytes (not for a string), in native byte order where an element has more than one
     * byte. A value may be left out, as null, for an input bound to a buffer ({@link #bindInput}); with every
     * input bound, the run may be given no values at all.
     *
     * @throws IllegalArgumentException naming what the model takes, for a value of the wrong type or size
     */
    public synchronized Outputs run(Object... values) {
        checkOpen();
        return timed(() -> runOnce(values));
    }

    /**
     * From another thread: stops the run in progress on this session at TFLite's next check between two
     * nodes; that run throws {@link java.util.concurrent.CancellationException} and counts as a failure, and the
     * session serves the next run as usual. No effect when no run is in progress, nor on a run that starts later.
     */
    public void cancel() {
        interpreter.cancel();
    }

    /**
     * Runs and failures so far, with the latency percentiles of the runs; read without waiting for a run in
     * progress, and after {@link #close()} too.
     */
    public Metrics metrics() {
        return stats.snapshot();
    }

    /**
     * Profiles every run from now on, as ONNX Runtime's {@code enableProfiling} does: TFLite reports each node
     * it invokes, with its op, to a profiler of the project's native layer, which times it
     * ({@link #lastRunProfile()}). No effect when profiling is on already.
     *
     * @throws IllegalStateException when the native layer is not loaded, saying why
     */
    public synchronized void enableProfiling() {
        checkOpen();
        if (profiler == null) {
            profiler = new OpProfiler(PROFILE_CAPACITY);
            interpreter.setProfiler(profiler);
        }
    }

    /** Stops profiling: the interpreter has no profiler from the next run on. No effect when it is off. */
    public synchronized void disableProfiling() {
        checkOpen();
        if (profiler != null) {
            interpreter.setProfiler(null);
            profiler.close();
            profiler = null;
        }
    }

    /**
     * The nodes the last run invoked, each with its time, as that run left them (a run that failed, up to its
     * failure); no nodes before the first profiled run.
     *
     * @throws IllegalStateException when profiling is off ({@link #enableProfiling()})
     */
    public synchronized RunProfile lastRunProfile() {
        checkOpen();
        if (profiler == null) {
            throw new IllegalStateException("profiling is off: enableProfiling() before the runs to profile");
        }
        return RunProfile.of(profiler.events());
    }

    /** Runs {@code run}, counted in {@link #metrics()}: its latency, and as a failure if it throws. */
    private Outputs timed(Supplier<Outputs> run) {
        if (profiler != null) {
            profiler.clear();
        }
        long start = System.nanoTime();
        boolean succeeded = false;
        try {
            Outputs outputs = run.get();
            succeeded = true;
            return outputs;
        } finally {
            stats.ran(start, succeeded);
        }
    }

    private Outputs runOnce(Object... values) {
        boolean allBound = values.length == 0 && inputTensors.stream().allMatch(t -> t.bound() != null);
        if (values.length != inputs.size() && !allBound) {
            throw new IllegalArgumentException("got " + values.length + " input values; "
                    + InputValues.expectations(inputs, MODEL));
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null || inputTensors.get(i).bound() == null) {
                InputValues.write(values[i], inputs.get(i), inputs, MODEL, inputTensors.get(i));
            }
        }
        interpreter.invoke();
        return read(outputTensors, outputs);
    }

    /** Runs the model on a value for every input, by name (one bound to a buffer may be left out). */
    public synchronized Outputs run(Map<String, ?> values) {
        checkOpen();
        return run(values, Set.copyOf(outputNames()));
    }

    /**
     * Runs the model on a value for every input, by name (one bound to a buffer may be left out), and reads the
     * outputs named only: the others are computed, as TFLite computes every output, but not copied.
     *
     * @throws IllegalArgumentException naming the inputs and outputs, for a name the model has not
     */
    public synchronized Outputs run(Map<String, ?> values, Set<String> outputNames) {
        checkOpen();
        return timed(() -> {
            List<String> names = names(inputs);
            requireValues(values, inputs, i -> inputTensors.get(i).bound() != null, MODEL);
            List<Integer> selected = selected(outputNames, outputs, MODEL);
            for (int i = 0; i < inputs.size(); i++) {
                if (values.containsKey(names.get(i))) {
                    InputValues.write(values.get(names.get(i)), inputs.get(i), inputs, MODEL, inputTensors.get(i));
                }
            }
            interpreter.invoke();
            return read(selected.stream().map(outputTensors::get).toList(),
                    selected.stream().map(outputs::get).toList());
        });
    }

    /**
     * The output's memory as it lies in the interpreter, read-only and in native byte order, without a copy:
     * valid only until this session's next run, {@link #resizeInput} or {@link #close()}, which free or rewrite
     * it (read after that, it holds other values or freed memory). Run with {@link #run(Map, Set)} and no
     * output named to read outputs this way only. For an output bound to a buffer, a view of that buffer.
     */
    public synchronized ByteBuffer outputView(String name) {
        checkOpen();
        return outputView(indexOf(name, outputs, "output"));
    }

    /** {@link #outputView(String)} by index. */
    public synchronized ByteBuffer outputView(int index) {
        checkOpen();
        checkIndex(index, outputs, "output");
        IoTensor tensor = outputTensors.get(index);
        ByteBuffer data = tensor.bound() != null ? tensor.bound() : tensor.data();
        return data.asReadOnlyBuffer().order(ByteOrder.nativeOrder());
    }

    /**
     * Binds a caller's direct buffer to the input: from the next run on, TFLite reads the input from the buffer
     * in place, no copy made, and the caller writes its values there before each run (a value given to a run
     * is written into it). The buffer's remaining bytes must be exactly the input's, at an address aligned to
     * 64 bytes ({@link TensorInfo#allocateDirect()} makes such a buffer), in native byte order where an element
     * has more than one byte. The session holds the buffer until {@link #unbind}, {@link #resizeInput} (a new
     * shape drops every binding) or {@link #close()}. Not for a string input, whose memory TFLite sizes to its
     * strings.
     *
     * @throws IllegalArgumentException naming what is wrong with the buffer, or the model's inputs
     */
    public synchronized void bindInput(String name, ByteBuffer buffer) {
        checkOpen();
        int index = indexOf(name, inputs, "input");
        bind(inputs.get(index), inputTensors.get(index), buffer, "input");
    }

    /**
     * Binds a caller's direct buffer to the output, as {@link #bindInput} binds one to an input: each run has
     * TFLite write the output into the buffer in place, and the run's {@link Outputs} read it there.
     */
    public synchronized void bindOutput(String name, ByteBuffer buffer) {
        checkOpen();
        int index = indexOf(name, outputs, "output");
        bind(outputs.get(index), outputTensors.get(index), buffer, "output");
    }

    /**
     * Unbinds the buffer bound to the input or output (or both) of that name: the tensor is back in the
     * interpreter's memory, and the caller's buffer free.
     */
    public synchronized void unbind(String name) {
        checkOpen();
        List<IoTensor> named = new ArrayList<>();
        IntStream.range(0, inputs.size()).filter(i -> inputs.get(i).name().equals(name))
                .forEach(i -> named.add(inputTensors.get(i)));
        IntStream.range(0, outputs.size()).filter(i -> outputs.get(i).name().equals(name))
                .forEach(i -> named.add(outputTensors.get(i)));
        if (named.isEmpty()) {
            throw new IllegalArgumentException("no input or output named '" + name + "'; the model takes "
                    + names(inputs) + " and gives " + names(outputs));
        }
        named.forEach(IoTensor::unbind);
    }

    /**
     * A copy of an input's bytes as the last run left them, in native byte order (before any run, what the
     * interpreter was built with). Refused for an input the plan releases after its last consumer
     * ({@link SessionOptions#releaseInputs()}): by the end of a run later tensors have written over it.
     */
    public synchronized ByteBuffer inputValues(int index) {
        checkOpen();
        checkIndex(index, inputs, "input");
        if (recipe.releases(index) && inputTensors.get(index).bound() == null) {
            throw new IllegalStateException("input " + inputs.get(index) + " is released after its last consumer "
                    + "(SessionOptions.releaseInputs): later tensors reuse its bytes, so it cannot be read back");
        }
        ByteBuffer input = inputTensors.get(index).data();
        return ByteBuffer.allocate(input.remaining()).put(input).flip().order(ByteOrder.nativeOrder());
    }

    /** The keys of the model's signatures, in the model's order; empty when it has none. */
    public synchronized List<String> signatureKeys() {
        checkOpen();
        return SignatureRun.keys(interpreter);
    }

    /**
     * What the signature takes, under its own names (in name order, as TFLite keeps them).
     *
     * @throws IllegalArgumentException naming the model's signature keys, for a key it has not
     */
    public synchronized List<TensorInfo> signatureInputs(String key) {
        checkOpen();
        return signature(key).inputs();
    }

    /** What the signature gives, under its own names (in name order, as TFLite keeps them). */
    public synchronized List<TensorInfo> signatureOutputs(String key) {
        checkOpen();
        return signature(key).outputs();
    }

    /**
     * Runs the signature on a value for each of its inputs, by the signature's names (values as
     * {@link #run(Object...)} takes them), and reads every output of it, named as the signature names them.
     * TFLite allocates the signature's subgraph at its first run. A signature's tensors are its subgraph's: for
     * a signature of the primary subgraph, those of a plain run, buffers bound to them included.
     *
     * @throws IllegalArgumentException naming the signature keys, or the signature's inputs
     */
    public synchronized Outputs runSignature(String key, Map<String, ?> values) {
        checkOpen();
        return runSignature(key, values, Set.copyOf(names(signature(key).outputs())));
    }

    /** {@link #runSignature(String, Map)}, reading the outputs named only. */
    public synchronized Outputs runSignature(String key, Map<String, ?> values, Set<String> outputNames) {
        checkOpen();
        Signature signature = signature(key);
        return timed(() -> {
            List<String> names = names(signature.inputs());
            requireValues(values, signature.inputs(), i -> false, signatureName(key));
            List<Integer> selected = selected(outputNames, signature.outputs(), signatureName(key));
            signature.run().allocate();
            for (int i = 0; i < names.size(); i++) {
                InputValues.write(values.get(names.get(i)), signature.inputs().get(i), signature.inputs(),
                        signatureName(key), signature.run().inputs().get(i));
            }
            signature.run().invoke();
            return read(selected.stream().map(signature.run().outputs()::get).toList(),
                    selected.stream().map(signature.outputs()::get).toList());
        });
    }

    /**
     * Bytes of the rw arenas the interpreter runs on, summed over subgraphs: the Java plan's where there is
     * one, else what TFLite reports of its own. Persistent arenas are left out: they hold what kernels
     * cache, not activations, and a plan only places them.
     */
    public synchronized long arenaBytes() {
        checkOpen();
        return recipe.arenaBytes(interpreter);
    }

    /**
     * Bytes of the persistent arenas this session owns: what kernels cache, less what it shares with other
     * sessions of its model ({@link #sharedBytes()}).
     */
    public synchronized long persistentArenaBytes() {
        checkOpen();
        return recipe.persistentBytes(interpreter);
    }

    /**
     * The persistent tensors behind {@link #persistentArenaBytes()}, each with why it is not shared: state the
     * kernel keeps per session, out of the sharing rules' reach, shareable (sharing off), or unexplained. Reads
     * a probe interpreter TFLite prepares in the session's configuration.
     */
    public synchronized List<PersistentTensors.Owned> persistentTensors() {
        checkOpen();
        return recipe.persistentTensors();
    }

    /** Bytes of the region of constant-derived tensors this session shares with others of its model, 0 if none. */
    public synchronized long sharedBytes() {
        checkOpen();
        return interpreter.sharedBytes();
    }

    /**
     * Gives an input a new shape: the session builds a new interpreter, and a Java planner plans again. Every
     * buffer bound to an input or output is unbound, as their sizes change.
     */
    public synchronized void resizeInput(int index, int... shape) {
        checkOpen();
        checkIndex(index, inputs, "input");
        InterpreterRecipe resized = recipe.resized(index, shape);
        NativeInterpreter previous = interpreter;
        use(resized);
        previous.close();
    }

    /** {@link #resizeInput(int, int...)} by name. */
    public synchronized void resizeInput(String name, int... shape) {
        checkOpen();
        resizeInput(indexOf(name, inputs, "input"), shape);
    }

    private void use(InterpreterRecipe next) {
        NativeInterpreter built = next.build();
        recipe = next;
        interpreter = built;
        inputTensors = IntStream.range(0, built.inputCount()).mapToObj(i -> IoTensor.input(built, i)).toList();
        outputTensors = IntStream.range(0, built.outputCount()).mapToObj(i -> IoTensor.output(built, i)).toList();
        inputs = IntStream.range(0, inputTensors.size()).mapToObj(i -> TensorInfo.of(i, inputTensors.get(i))).toList();
        outputs = IntStream.range(0, outputTensors.size())
                .mapToObj(i -> TensorInfo.of(i, outputTensors.get(i))).toList();
        signatures.clear();
        if (profiler != null) {
            built.setProfiler(profiler);
        }
    }

    private static String signatureName(String key) {
        return "signature '" + key + "'";
    }

    private Signature signature(String key) {
        return signatures.computeIfAbsent(key, k -> {
            SignatureRun run = SignatureRun.of(interpreter, k);
            return new Signature(run, infos(run.inputNames(), run.inputs()), infos(run.outputNames(), run.outputs()));
        });
    }

    private static List<TensorInfo> infos(List<String> names, List<IoTensor> tensors) {
        return IntStream.range(0, names.size()).mapToObj(i -> TensorInfo.of(i, names.get(i), tensors.get(i))).toList();
    }

    private static void bind(TensorInfo info, IoTensor tensor, ByteBuffer buffer, String what) {
        if (!buffer.isDirect() || buffer.remaining() != info.bytes()) {
            throw new IllegalArgumentException(what + " " + info + " cannot be bound to "
                    + (buffer.isDirect() ? "a direct" : "a heap") + " ByteBuffer of " + buffer.remaining()
                    + " bytes: it takes a direct one of exactly its bytes (TensorInfo.allocateDirect() makes one)");
        }
        InputValues.requireNativeOrder(buffer, info, what);
        tensor.bind(buffer);
    }

    /** Copies out each output that is not bound to a caller's buffer; a bound one is read where it is. */
    private static Outputs read(List<IoTensor> tensors, List<TensorInfo> infos) {
        ByteBuffer[] data = new ByteBuffer[tensors.size()];
        List<TensorInfo> read = new ArrayList<>(infos);
        for (int i = 0; i < data.length; i++) {
            IoTensor tensor = tensors.get(i);
            if (tensor.bound() != null) {
                data[i] = tensor.bound().asReadOnlyBuffer();
                continue;
            }
            ByteBuffer output = tensor.data();
            if (output.remaining() != infos.get(i).bytes()) {
                // A string's, or a dynamic output's: its size is only known once the run wrote it.
                read.set(i, TensorInfo.of(infos.get(i).index(), infos.get(i).name(), tensor));
            }
            // On the Java heap: a direct copy per call would grow native memory until a GC frees it.
            data[i] = ByteBuffer.allocate(output.remaining()).put(output).flip();
        }
        return new Outputs(List.copyOf(read), data);
    }

    /**
     * Refuses values for inputs {@code taker} has not, and values missing for its inputs, but for those
     * {@code mayBeLeftOut} (bound to a caller's buffer).
     */
    private static void requireValues(Map<String, ?> values, List<TensorInfo> inputs, IntPredicate mayBeLeftOut,
                                      String taker) {
        List<String> names = names(inputs);
        List<String> unknown = values.keySet().stream().filter(n -> !names.contains(n)).toList();
        List<String> missing = IntStream.range(0, names.size())
                .filter(i -> !values.containsKey(names.get(i)) && !mayBeLeftOut.test(i)).mapToObj(names::get).toList();
        if (!unknown.isEmpty() || !missing.isEmpty()) {
            throw new IllegalArgumentException((taker.equals(MODEL) ? "" : taker + ": ") + "inputs unknown " + unknown
                    + ", missing " + missing + "; " + InputValues.expectations(inputs, taker));
        }
    }

    /** The positions of the outputs named, in output order; refused, naming the outputs, for one not there. */
    private static List<Integer> selected(Set<String> names, List<TensorInfo> from, String giver) {
        List<String> unknown = names.stream().filter(n -> from.stream().noneMatch(o -> o.name().equals(n)))
                .sorted().toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("outputs unknown " + unknown + "; " + giver + " gives " + describe(from));
        }
        return IntStream.range(0, from.size()).filter(i -> names.contains(from.get(i).name())).boxed().toList();
    }

    private List<String> outputNames() {
        return names(outputs);
    }

    private static List<String> names(List<TensorInfo> infos) {
        return infos.stream().map(TensorInfo::name).toList();
    }

    private static String describe(List<TensorInfo> infos) {
        return infos.stream().map(TensorInfo::toString).collect(Collectors.joining(", "));
    }

    /** The index of the input or output ({@code what}) named {@code name}; refused, naming them all, if none. */
    static int indexOf(String name, List<TensorInfo> infos, String what) {
        return infos.stream().filter(i -> i.name().equals(name)).mapToInt(TensorInfo::index).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + what + " named '" + name + "'; the model "
                        + (what.equals("input") ? "takes " : "gives ") + describe(infos)));
    }

    /** Refuses an index that names no input or output ({@code what}), naming them all. */
    static void checkIndex(int index, List<TensorInfo> infos, String what) {
        if (index < 0 || index >= infos.size()) {
            throw new IllegalArgumentException("no " + what + " " + index + "; the model "
                    + (what.equals("input") ? "takes " : "gives ") + describe(infos));
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            interpreter.close();
            if (profiler != null) {
                profiler.close();
            }
        }
    }
}
