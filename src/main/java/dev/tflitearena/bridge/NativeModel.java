package dev.tflitearena.bridge;

import org.bytedeco.tensorflowlite.FlatBufferModel;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@code .tflite} file loaded by the native library after its flatbuffer verifier accepted it. Interpreters
 * built from it keep it alive: closing the model while they are open only frees it once the last one closes.
 */
public final class NativeModel implements AutoCloseable {
    private final Path path;
    private final FlatBufferModel model;
    private int users;
    private boolean closed;

    private NativeModel(Path path, FlatBufferModel model) {
        this.path = path;
        this.model = model;
    }

    public static NativeModel load(Path path) {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new NativeException(path + ": no such readable file");
        }
        FlatBufferModel model = FlatBufferModel.VerifyAndBuildFromFile(path.toString());
        if (model == null || model.isNull()) {
            throw new NativeException(path + ": not a valid TFLite model (the flatbuffer verifier rejected it;"
                    + " the file may be truncated or corrupt)");
        }
        return new NativeModel(path, model);
    }

    public Path path() {
        return path;
    }

    synchronized FlatBufferModel retain() {
        if (closed) {
            throw new IllegalStateException(path + ": model is closed");
        }
        users++;
        return model;
    }

    synchronized void release() {
        users--;
        freeIfUnused();
    }

    @Override
    public synchronized void close() {
        closed = true;
        freeIfUnused();
    }

    private void freeIfUnused() {
        if (closed && users == 0 && !model.isNull()) {
            model.close();
        }
    }
}
