package dev.tflitearena.session;

import dev.tflitearena.bridge.NativeModel;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A verified {@code .tflite} model, the entry point of the serving API. Sessions and pools made from it keep
 * the native model alive, so closing it while they run is safe; it then refuses new sessions, and
 * {@link Session#resizeInput}, which builds a new interpreter, too.
 */
public final class TfLiteModel implements AutoCloseable {
    private final NativeModel model;

    private TfLiteModel(NativeModel model) {
        this.model = model;
    }

    /** Loads the file after TFLite's flatbuffer verifier accepts it. */
    public static TfLiteModel load(Path path) {
        return new TfLiteModel(NativeModel.load(path));
    }

    public Path path() {
        return model.path();
    }

    public Session newSession(SessionOptions options) {
        return new Session(InterpreterRecipe.of(model, options));
    }

    /**
     * A pool of at most {@code size} sessions; a call waits up to {@code timeout} for one to be free. A Java
     * planner plans once, for the whole pool.
     */
    public SessionPool newPool(SessionOptions options, int size, Duration timeout) {
        return new SessionPool(InterpreterRecipe.of(model, options), size, timeout);
    }

    @Override
    public void close() {
        model.close();
    }
}
