package dev.tflitearena.bridge;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.FlatBufferModel;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@code .tflite} file loaded by the native library after its flatbuffer verifier accepted it. Interpreters
 * built from it keep it alive: closing the model while they are open frees it when the last one closes.
 */
public final class NativeModel extends SharedNativeResource {
    private final Path path;
    private final FlatBufferModel model;
    /** The model's bytes when built from memory: the native model reads them in place. */
    private final BytePointer bytes;

    private NativeModel(Path path, FlatBufferModel model, BytePointer bytes) {
        this.path = path;
        this.model = model;
        this.bytes = bytes;
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
        return new NativeModel(path, model, null);
    }

    /** A model built in memory; {@code name} stands for the file in messages. */
    public static NativeModel fromBytes(byte[] data, String name) {
        BytePointer bytes = new BytePointer(data.length);
        bytes.put(data);
        FlatBufferModel model = FlatBufferModel.VerifyAndBuildFromBuffer(bytes, data.length);
        if (model == null || model.isNull()) {
            bytes.close();
            throw new NativeException(name + ": not a valid TFLite model (the flatbuffer verifier rejected it)");
        }
        return new NativeModel(Path.of(name), model, bytes);
    }

    public Path path() {
        return path;
    }

    /** The native model, for an interpreter that has retained it. */
    FlatBufferModel flatBuffer() {
        return model;
    }

    @Override
    protected void free() {
        model.close();
        if (bytes != null) {
            bytes.close();
        }
    }

    @Override
    protected String describe() {
        return path + ": model";
    }
}
