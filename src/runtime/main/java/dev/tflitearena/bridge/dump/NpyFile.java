package dev.tflitearena.bridge.dump;

import dev.tflitearena.graph.TensorType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * NumPy's {@code .npy} format, version 1.0: a tensor's bytes behind a header naming dtype and shape, so that
 * {@code numpy.load} reads a dumped tensor without knowing TFLite. The dtype carries the machine's byte order
 * (little-endian on every platform the presets ship), so the tensor's bytes are written as they are in memory.
 */
public final class NpyFile {
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    /** Magic, version and the 2-byte header length before the header text. */
    private static final int PREAMBLE = MAGIC.length + 2;
    /** NumPy pads the header so that the data starts 64-byte aligned; readers accept any multiple of 16. */
    private static final int ALIGNMENT = 64;

    private NpyFile() {
    }

    /** NumPy's dtype of a TFLite type in this machine's byte order, or null when NumPy has none. */
    public static String dtype(TensorType type) {
        String code = switch (type) {
            case FLOAT32 -> "f4";
            case FLOAT64 -> "f8";
            case FLOAT16 -> "f2";
            case INT8 -> "i1";
            case INT16 -> "i2";
            case INT32 -> "i4";
            case INT64 -> "i8";
            case UINT8 -> "u1";
            case UINT16 -> "u2";
            case UINT32 -> "u4";
            case UINT64 -> "u8";
            case BOOL -> "b1";
            case COMPLEX64 -> "c8";
            case COMPLEX128 -> "c16";
            default -> null;
        };
        if (code == null) {
            return null;
        }
        // One-byte types have no byte order; NumPy spells that '|'.
        char order = type.bytesFor(new int[0]) == 1 ? '|'
                : ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? '<' : '>';
        return order + code;
    }

    /** Why a type has no file: the types {@link #dtype} maps to null. */
    public static String noDtypeReason(TensorType type) {
        return switch (type) {
            case STRING -> "STRING tensors hold variable-length strings behind an offset table; NumPy reads them"
                    + " only as pickled objects";
            case RESOURCE, VARIANT -> type + " tensors hold a handle to a runtime object, not data";
            case INT4, INT2 -> type + " packs several values per byte; NumPy has no such dtype";
            case BFLOAT16 -> "NumPy has no bfloat16 dtype";
            default -> type + " has no NumPy dtype";
        };
    }

    /** The header, padded so that the data starts aligned. */
    static byte[] header(String dtype, int[] shape) {
        String dims = Arrays.stream(shape).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        String text = "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': ("
                + dims + (shape.length == 1 ? "," : "") + "), }";
        int unpadded = PREAMBLE + text.length() + 1;
        int padded = (unpadded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        text = text + " ".repeat(padded - unpadded) + "\n";
        if (text.length() > 0xFFFF) {
            throw new IllegalArgumentException("a shape of rank " + shape.length + " does not fit a version 1.0 header");
        }
        ByteBuffer header = ByteBuffer.allocate(padded).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putShort((short) text.length()).put(text.getBytes(StandardCharsets.US_ASCII));
        return header.array();
    }

    /** Writes {@code data}, the tensor's whole memory in C order, behind the header; returns the file's bytes. */
    static long write(Path file, String dtype, int[] shape, ByteBuffer data) throws IOException {
        byte[] header = header(dtype, shape);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer head = ByteBuffer.wrap(header);
            while (head.hasRemaining()) {
                channel.write(head);
            }
            // Straight from native memory: a tensor is not copied into the Java heap to be written.
            while (data.hasRemaining()) {
                channel.write(data);
            }
            return channel.size();
        }
    }

    /** The data of a file this class wrote: everything behind the header. */
    static byte[] readData(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (all.length < PREAMBLE || !Arrays.equals(all, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new IOException(file + ": not a version 1.0 .npy file");
        }
        int headerLength = ByteBuffer.wrap(all, MAGIC.length, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xFFFF;
        return Arrays.copyOfRange(all, PREAMBLE + headerLength, all.length);
    }
}
