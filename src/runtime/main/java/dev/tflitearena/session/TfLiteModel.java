package dev.tflitearena.session;

import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.plan.baked.BakedEntry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.time.Duration;

/**
 * A verified {@code .tflite} model, the entry point of the serving API. Sessions and pools made from it keep
 * the native model alive, so closing it while they run is safe; it then refuses new sessions, and
 * {@link Session#resizeInput}, which builds a new interpreter, too. It holds the regions its sharing sessions
 * back their constant-derived tensors with, one per configuration ({@link SessionOptions#shareConstants()}).
 * A plan baked into the model ({@code bake --for tflite}) is read when it loads: its sessions and pools run on
 * it instead of planning, as {@link SessionOptions#bakedPlan()} says.
 */
public final class TfLiteModel implements AutoCloseable {
    private final NativeModel model;
    private final SharedRegions regions = new SharedRegions();
    private final BakedEntry baked;

    private TfLiteModel(NativeModel model) {
        this.model = model;
        try {
            this.baked = BakedEntry.of(model.bytes(), model.path().toString());
        } catch (RuntimeException e) {
            model.close();
            throw e;
        }
    }

    /** Loads the file after TFLite's flatbuffer verifier accepts it. */
    public static TfLiteModel load(Path path) {
        return new TfLiteModel(NativeModel.load(path));
    }

    /**
     * Loads a model from memory after TFLite's flatbuffer verifier accepts it. The bytes are copied into native
     * memory the model owns until it is closed (TFLite reads a model in place for as long as it lives), so the
     * array may be reused as soon as this returns.
     */
    public static TfLiteModel load(byte[] bytes) {
        return load(ByteBuffer.wrap(bytes));
    }

    /**
     * Loads a model from the buffer's remaining bytes (heap or direct, position and limit left alone), copied as
     * {@link #load(byte[])} copies them.
     */
    public static TfLiteModel load(ByteBuffer bytes) {
        return new TfLiteModel(NativeModel.fromBuffer(bytes, inMemory(bytes.remaining())));
    }

    /**
     * Loads a model from a source not trusted: reads the file once, has a child JVM put those bytes through
     * every native step (load, plan, allocate, invoke, with and without XNNPACK; see {@link IsolatedRun}),
     * and loads the same bytes here only if every step succeeded. TFLite's verifier checks a model's
     * structure, not its meaning, and a kernel can crash the process in prepare or invoke on a model it
     * accepted. The check costs a JVM start and a few invokes; the child runs on this JVM's class path.
     *
     * @throws NativeException naming the outcome (refused, crashed, timed out, out of memory), the step and
     *                         what the child reported
     */
    public static TfLiteModel loadUntrusted(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new NativeException(path + ": cannot read the file: " + e.getMessage());
        }
        return checkedInChild(bytes, path.toString());
    }

    /** {@link #loadUntrusted(Path)} on a model in memory, copied as {@link #load(byte[])} copies it. */
    public static TfLiteModel loadUntrusted(byte[] bytes) {
        return checkedInChild(bytes.clone(), inMemory(bytes.length));
    }

    /** {@link #loadUntrusted(Path)} on the buffer's remaining bytes, copied as {@link #load(byte[])} copies them. */
    public static TfLiteModel loadUntrusted(ByteBuffer bytes) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        return checkedInChild(copy, inMemory(copy.length));
    }

    /** Loads {@code bytes} if a child JVM ran them safely; the child and this model read the same copy. */
    private static TfLiteModel checkedInChild(byte[] bytes, String name) {
        IsolatedRun.Result check = IsolatedRun.check(bytes, name);
        if (check.outcome() != IsolatedRun.Outcome.OK) {
            throw new NativeException(name + ": the isolated check found the model unsafe to load: "
                    + check.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " at step '"
                    + check.stage() + "': " + check.detail());
        }
        return new TfLiteModel(NativeModel.fromBytes(bytes, name));
    }

    /** What stands for the file of a model loaded from memory, in {@link #path()} and in messages. */
    private static String inMemory(int bytes) {
        return "in-memory model of " + bytes + " bytes";
    }

    /**
     * The file the model was loaded from; for a model loaded from memory, a relative path standing for it in
     * messages, {@code in-memory model of N bytes}.
     */
    public Path path() {
        return model.path();
    }

    /**
     * A session; with {@link SessionOptions#shareConstants()}, it is built and invoked once before it is
     * returned, and shares what derives from constants with every sharing session of this model and
     * configuration.
     */
    public Session newSession(SessionOptions options) {
        return new Session(recipe(options));
    }

    /** How this model's sessions with these options are built. */
    InterpreterRecipe recipe(SessionOptions options) {
        return InterpreterRecipe.of(model, options, options.shareConstants() ? regions : null, baked);
    }

    /**
     * A pool of at most {@code size} sessions; a call waits up to {@code timeout} for one to be free. A Java
     * planner plans once, for the whole pool. Its sessions always share what derives from constants: each is
     * warmed up, one at a time, before the pool serves.
     */
    public SessionPool newPool(SessionOptions options, int size, Duration timeout) {
        return new SessionPool(InterpreterRecipe.of(model, options.withSharing(true), regions, baked), size, timeout);
    }

    @Override
    public void close() {
        regions.close();
        model.close();
    }
}
