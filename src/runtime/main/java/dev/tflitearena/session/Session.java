package dev.tflitearena.session;

import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.TensorAccess;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * One interpreter of a model, for one caller at a time: every method is synchronized, so {@link #close()}
 * waits for a run in progress. Create it with {@link TfLiteModel#newSession}; serve concurrent callers with
 * a {@link SessionPool}.
 */
public final class Session implements AutoCloseable {
    private InterpreterRecipe recipe;
    /** Volatile for {@link #cancel()}, which reads it without the lock a run holds. */
    private volatile NativeInterpreter interpreter;
    private List<TensorInfo> inputs;
    private List<TensorInfo> outputs;
    private boolean closed;
    private final RunStats stats = new RunStats();

    Session(InterpreterRecipe recipe) {
        use(recipe);
    }

    public synchronized List<TensorInfo> inputs() {
        checkOpen();
        return inputs;
    }

    public synchronized List<TensorInfo> outputs() {
        checkOpen();
        return outputs;
    }

    /**
     * Runs the model on one value per input, in input order. A value is a Java array of the input's type
     * (float[] for float32, byte[] for int8 and uint8, int[] for int32, long[] for int64) with one element per
     * value of its shape, or a direct ByteBuffer of exactly its bytes in native byte order.
     */
    public synchronized Outputs run(Object... values) {
        checkOpen();
        long start = System.nanoTime();
        boolean succeeded = false;
        try {
            Outputs outputs = runOnce(values);
            succeeded = true;
            return outputs;
        } finally {
            stats.ran(start, succeeded);
        }
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

    private Outputs runOnce(Object... values) {
        if (values.length != inputs.size()) {
            throw new IllegalArgumentException("got " + values.length + " input values; "
                    + InputValues.expectations(inputs));
        }
        for (int i = 0; i < values.length; i++) {
            InputValues.write(values[i], inputs.get(i), inputs, TensorAccess.inputData(interpreter, i));
        }
        interpreter.invoke();
        ByteBuffer[] data = new ByteBuffer[outputs.size()];
        for (int i = 0; i < data.length; i++) {
            ByteBuffer output = TensorAccess.outputData(interpreter, i);
            // On the Java heap: a direct copy per call would grow native memory until a GC frees it.
            data[i] = ByteBuffer.allocate(output.remaining()).put(output).flip();
        }
        return new Outputs(outputs, data);
    }

    /**
     * A copy of an input's bytes as the last run left them, in native byte order (before any run, what the
     * interpreter was built with). Refused for an input the plan releases after its last consumer
     * ({@link SessionOptions#releaseInputs()}): by the end of a run later tensors have written over it.
     */
    public synchronized ByteBuffer inputValues(int index) {
        checkOpen();
        InputValues.checkIndex(index, inputs);
        if (recipe.releases(index)) {
            throw new IllegalStateException("input " + inputs.get(index) + " is released after its last consumer "
                    + "(SessionOptions.releaseInputs): later tensors reuse its bytes, so it cannot be read back");
        }
        ByteBuffer input = TensorAccess.inputData(interpreter, index);
        return ByteBuffer.allocate(input.remaining()).put(input).flip().order(ByteOrder.nativeOrder());
    }

    /** Runs the model on a value for every input, by name. */
    public synchronized Outputs run(Map<String, ?> values) {
        checkOpen();
        List<String> unknown = new ArrayList<>(values.keySet());
        unknown.removeAll(inputs.stream().map(TensorInfo::name).toList());
        List<String> missing = inputs.stream().map(TensorInfo::name).filter(n -> !values.containsKey(n)).toList();
        if (!unknown.isEmpty() || !missing.isEmpty()) {
            throw new IllegalArgumentException("inputs unknown " + unknown + ", missing " + missing + "; "
                    + InputValues.expectations(inputs));
        }
        return run(inputs.stream().map(i -> values.get(i.name())).toArray());
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

    /** Bytes of the region of constant-derived tensors this session shares with others of its model, 0 if none. */
    public synchronized long sharedBytes() {
        checkOpen();
        return interpreter.sharedBytes();
    }

    /** Gives an input a new shape: the session builds a new interpreter, and a Java planner plans again. */
    public synchronized void resizeInput(int index, int... shape) {
        checkOpen();
        InputValues.checkIndex(index, inputs);
        InterpreterRecipe resized = recipe.resized(index, shape);
        NativeInterpreter previous = interpreter;
        use(resized);
        previous.close();
    }

    public synchronized void resizeInput(String name, int... shape) {
        checkOpen();
        resizeInput(InputValues.indexOf(name, inputs), shape);
    }

    private void use(InterpreterRecipe next) {
        NativeInterpreter built = next.build();
        recipe = next;
        interpreter = built;
        inputs = IntStream.range(0, built.inputCount()).mapToObj(i -> TensorInfo.of(i, built.input(i))).toList();
        outputs = IntStream.range(0, built.outputCount())
                .mapToObj(i -> TensorInfo.of(i, TensorAccess.outputTensor(built, i))).toList();
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
        }
    }
}
