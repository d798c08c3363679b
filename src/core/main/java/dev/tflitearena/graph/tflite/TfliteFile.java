package dev.tflitearena.graph.tflite;

import org.tensorflow.lite.schema.Metadata;
import org.tensorflow.lite.schema.Model;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads a {@code .tflite} file into {@link TfliteModel} records, in pure Java, without the native runtime.
 * A corrupt, truncated or hostile file gives an {@link InvalidModelException} naming the file and the
 * problem, never another exception, and reading takes time and memory in proportion to the file's size.
 * The file identifier "TFL3" is checked; a file without it is still read when its root table parses as a
 * schema version 3 model, as files written without an identifier do.
 *
 * <p>{@link TfliteModel#toGraph()} gives the static graph the file declares. It lacks what kernels add in
 * prepare (temporaries, in-place flags, tensors kernels turn persistent), so only the native snapshot plans
 * exactly like TFLite.
 */
public final class TfliteFile {
    public static final String IDENTIFIER = "TFL3";
    /** A root offset and an identifier. */
    private static final int HEADER_BYTES = 8;

    private TfliteFile() {
    }

    public static TfliteModel read(Path file) throws IOException {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new FileNotFoundException(file + ": no such readable file");
        }
        long size = Files.size(file);
        if (size > Integer.MAX_VALUE - HEADER_BYTES) {
            throw new InvalidModelException(file + ": " + size + " bytes, more than a flatbuffer addresses (2 GiB)");
        }
        return read(Files.readAllBytes(file), file.toString());
    }

    /** Reads a model from memory; messages name it "model". */
    public static TfliteModel read(byte[] bytes) {
        return read(bytes, "model");
    }

    /** Reads a model from memory; {@code name} (a file name) starts every error message. */
    public static TfliteModel read(byte[] bytes, String name) {
        if (bytes.length == 0) {
            throw new InvalidModelException(name + ": empty file");
        }
        if (bytes.length < HEADER_BYTES) {
            throw new InvalidModelException(name + ": " + bytes.length + " bytes, too short for a TFLite model");
        }
        String identifier = new String(bytes, 4, 4, StandardCharsets.ISO_8859_1);
        String unidentified = IDENTIFIER.equals(identifier) ? ""
                : " (the file lacks the TFLite identifier '" + IDENTIFIER + "'; it has '" + printable(identifier)
                + "' there)";
        ModelReader reader = new ModelReader(bytes);
        try {
            return reader.read();
        } catch (InvalidModelException e) {
            throw new InvalidModelException(name + ": " + e.getMessage() + unidentified);
        } catch (RuntimeException e) {
            // The generated accessors throw IndexOutOfBounds and IllegalArgument exceptions on offsets that
            // lead outside the file; nothing else of theirs can go wrong on a heap buffer.
            throw new InvalidModelException(name + ": " + reader.where() + ": an offset or length leads outside the"
                    + " file; it is truncated or corrupt (" + e.getClass().getSimpleName() + ")" + unidentified);
        }
    }

    /**
     * The data of the model's first metadata entry named {@code name}, found without reading the rest of the
     * model, for a model the native verifier has accepted: a loaded one looks up its baked plan so. An offset
     * that leads outside the bytes is an {@link InvalidModelException}.
     */
    public static Optional<byte[]> metadata(ByteBuffer model, String name) {
        try {
            Model root = Model.getRootAsModel(model.duplicate().order(ByteOrder.LITTLE_ENDIAN));
            for (int i = 0; i < root.metadataLength(); i++) {
                Metadata m = root.metadata(i);
                if (name.equals(m.name())) {
                    if (m.buffer() >= root.buffersLength()) {
                        throw new InvalidModelException("metadata '" + name + "' refers to buffer " + m.buffer()
                                + ", the model has " + root.buffersLength());
                    }
                    ByteBuffer data = root.buffers((int) m.buffer()).dataAsByteBuffer();
                    byte[] bytes = new byte[data == null ? 0 : data.remaining()];
                    if (data != null) {
                        data.get(bytes);
                    }
                    return Optional.of(bytes);
                }
            }
            return Optional.empty();
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new InvalidModelException("metadata '" + name + "': an offset leads outside the model");
        }
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return b.toString();
    }
}
