package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeAddress;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.SharedNativeResource;
import dev.tflitearena.nativelayer.TfliteErrorReporter;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Allocation;
import org.bytedeco.tensorflowlite.BuiltinOpResolver;
import org.bytedeco.tensorflowlite.BuiltinOpResolverWithoutDefaultDelegates;
import org.bytedeco.tensorflowlite.ErrorReporter;
import org.bytedeco.tensorflowlite.FlatBufferModel;
import org.bytedeco.tensorflowlite.OpResolver;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.DefaultErrorReporter;

/**
 * A {@code .tflite} file loaded by the native library after its flatbuffer verifier accepted it. Interpreters
 * built from it keep it alive: closing the model while they are open frees it when the last one closes.
 * It holds the op resolvers its interpreters are built with, one of each kind, so that a pool of sessions
 * pays for them once (some 55 KB of native heap each on TFLite 2.20).
 */
public final class NativeModel extends SharedNativeResource {
    private final Path path;
    private final FlatBufferModel model;
    /** The model's bytes when built from memory: the native model reads them in place. */
    private final BytePointer bytes;
    private OpResolver withDefaultDelegates;
    private OpResolver withoutDefaultDelegates;

    private NativeModel(Path path, FlatBufferModel model, BytePointer bytes) {
        this.path = path;
        this.model = model;
        this.bytes = bytes;
    }

    public static NativeModel load(Path path) {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new NativeException(path + ": no such readable file");
        }
        FlatBufferModel model = FlatBufferModel.VerifyAndBuildFromFile(path.toString(), null, errorReporter());
        if (model == null || model.isNull()) {
            throw new NativeException(path + ": not a valid TFLite model (the flatbuffer verifier rejected it;"
                    + " the file may be truncated or corrupt)");
        }
        return new NativeModel(path, model, null);
    }

    /** A model built in memory; {@code name} stands for the file in messages. */
    public static NativeModel fromBytes(byte[] data, String name) {
        return fromBuffer(ByteBuffer.wrap(data), name);
    }

    /**
     * A model built from the buffer's remaining bytes, which are copied into native memory the model owns:
     * TFLite's {@code BuildFromBuffer} reads the model in place for as long as it lives, so the caller's buffer
     * is free again once this returns, and the copy is freed when the model is.
     */
    public static NativeModel fromBuffer(ByteBuffer data, String name) {
        if (!data.hasRemaining()) {
            throw new NativeException(name + ": no bytes, so no TFLite model");
        }
        BytePointer bytes = new BytePointer(data.remaining());
        bytes.asByteBuffer().put(data.duplicate());
        FlatBufferModel model = FlatBufferModel.VerifyAndBuildFromBuffer(bytes, bytes.capacity(), null, errorReporter());
        if (model == null || model.isNull()) {
            bytes.close();
            throw new NativeException(name + ": not a valid TFLite model (the flatbuffer verifier rejected it)");
        }
        return new NativeModel(Path.of(name), model, bytes);
    }

    /**
     * The reporter of the verifier and of every interpreter built from the model (an InterpreterBuilder takes
     * the model's): {@link TfliteErrorReporter}, or TFLite's default (standard error) without the native layer.
     */
    private static ErrorReporter errorReporter() {
        long address = TfliteErrorReporter.address();
        return address == 0 ? DefaultErrorReporter() : new ErrorReporter(new NativeAddress(address));
    }

    public Path path() {
        return path;
    }

    /**
     * The model's bytes where TFLite reads them (the file it mapped, or its copy), as a read-only view that is
     * valid while the model lives: no copy is made.
     */
    public ByteBuffer bytes() {
        Allocation allocation = model.allocation();
        return new BytePointer(allocation.base()).capacity(allocation.bytes()).asByteBuffer().asReadOnlyBuffer();
    }

    /** The native model, for an interpreter that has retained it. */
    FlatBufferModel flatBuffer() {
        return model;
    }

    /**
     * The op resolver for an interpreter of this model: TFLite's {@code BuiltinOpResolver} when
     * {@code defaultXnnpackDelegate}, else {@code BuiltinOpResolverWithoutDefaultDelegates}; made on first use.
     * One serves every interpreter, built on any thread: building only reads it ({@code FindOp} and
     * {@code GetDelegateCreators} are const) and copies what the interpreter keeps (the registrations, the
     * delegate creators), as its header says an OpResolver may serve many InterpreterBuilders and Interpreters.
     */
    synchronized OpResolver resolver(boolean defaultXnnpackDelegate) {
        if (defaultXnnpackDelegate) {
            if (withDefaultDelegates == null) {
                withDefaultDelegates = new BuiltinOpResolver();
            }
            return withDefaultDelegates;
        }
        if (withoutDefaultDelegates == null) {
            withoutDefaultDelegates = new BuiltinOpResolverWithoutDefaultDelegates();
        }
        return withoutDefaultDelegates;
    }

    @Override
    protected void free() {
        if (withDefaultDelegates != null) {
            withDefaultDelegates.close();
        }
        if (withoutDefaultDelegates != null) {
            withoutDefaultDelegates.close();
        }
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
