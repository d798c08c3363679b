package dev.tflitearena.graph.tflite;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Puts one metadata entry (a name and a buffer of bytes) into a model, leaving every other byte of it as it was.
 *
 * <p>A flatbuffer's offsets only point forward, so a table written after the model cannot be reached from the
 * model's vectors. The new root table goes in front instead: a prefix holds it, new buffer and metadata vectors
 * (the old entries' tables, where they stand, and the new entry's), and the entry's buffer; the input model
 * follows unchanged, its own root table left unreferenced. Its offsets are relative, so they stay valid; the
 * prefix is a multiple of {@value #ALIGNMENT} bytes, so its buffers keep their alignment. A root table with
 * fields of a schema newer than this one's is refused rather than written without them.
 */
public final class MetadataWriter {
    /** Buffer data is 16-aligned in TFLite's schema ({@code force_align: 16}); kept for the model behind. */
    static final int ALIGNMENT = 16;
    /** Model's fields: version, operator_codes, subgraphs, description, buffers, metadata_buffer, metadata, signature_defs. */
    private static final int MODEL_FIELDS = 8;
    private static final int VERSION = 0;
    private static final int BUFFERS = 4;
    private static final int METADATA = 6;
    /** Buffer's field {@code offset}, the place of data kept outside the flatbuffer of a model over 2 GB. */
    private static final int BUFFER_OFFSET_FIELD = 1;

    private MetadataWriter() {
    }

    /**
     * The model with the entry {@code name} holding {@code data}. A model that has an entry of that name is
     * refused unless {@code replace}; then the entry's buffer holds the new data (a buffer of its own when
     * something else shares the old one).
     */
    public static byte[] put(byte[] model, String name, byte[] data, boolean replace) {
        TfliteModel read = TfliteFile.read(model);
        List<TfliteModel.Metadata> same = read.metadata().stream().filter(m -> m.name().equals(name)).toList();
        if (same.size() > 1) {
            throw new InvalidModelException("the model has " + same.size() + " metadata entries named '" + name
                    + "'; which one to replace is not clear");
        }
        if (!same.isEmpty() && !replace) {
            throw new IllegalArgumentException("the model has metadata '" + name + "' already (buffer "
                    + same.get(0).buffer() + "); replace it explicitly to write a new one");
        }
        ByteBuffer old = ByteBuffer.wrap(model).order(ByteOrder.LITTLE_ENDIAN);
        int root = old.getInt(0);
        int[] fields = rootFields(old, root);
        int[] buffers = tables(old, fields[BUFFERS]);
        int[] metadata = tables(old, fields[METADATA]);
        checkDataInside(old, buffers);
        int replaced = same.isEmpty() ? -1 : indexOf(read.metadata(), same.get(0));
        int buffer = same.isEmpty() || shared(read, same.get(0).buffer(), replaced) ? Math.max(buffers.length, 1)
                : same.get(0).buffer();
        return new Prefix(model.length, name.getBytes(StandardCharsets.UTF_8), data)
                .write(old, root, fields, buffers, metadata, replaced, buffer);
    }

    /**
     * Refuses a model that a writer of this package would change by rewriting it: one whose root table has
     * fields of a newer schema, or whose buffers keep their data outside the flatbuffer.
     */
    static void checkRewritable(byte[] model) {
        ByteBuffer b = ByteBuffer.wrap(model).order(ByteOrder.LITTLE_ENDIAN);
        checkDataInside(b, tables(b, rootFields(b, b.getInt(0))[BUFFERS]));
    }

    private static void checkDataInside(ByteBuffer b, int[] buffers) {
        for (int i = 0; i < buffers.length; i++) {
            if (fieldValue(b, buffers[i], BUFFER_OFFSET_FIELD) > 1) {
                throw new InvalidModelException("buffer " + i + " keeps its data outside the flatbuffer (a model "
                        + "over 2 GB); such models are not written");
            }
        }
    }

    private static int indexOf(List<TfliteModel.Metadata> entries, TfliteModel.Metadata entry) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i) == entry) {
                return i;
            }
        }
        throw new IllegalStateException("entry not listed");
    }

    /** Whether a tensor or another metadata entry also refers to the buffer. */
    private static boolean shared(TfliteModel model, int buffer, int entry) {
        for (int i = 0; i < model.metadata().size(); i++) {
            if (i != entry && model.metadata().get(i).buffer() == buffer) {
                return true;
            }
        }
        return model.subgraphs().stream().flatMap(s -> s.tensors().stream()).anyMatch(t -> t.buffer() == buffer);
    }

    /** Each field of the root table: for version its value, for the others the absolute place they point at; 0 when absent. */
    private static int[] rootFields(ByteBuffer b, int root) {
        int vtable = root - b.getInt(root);
        int vtableBytes = Short.toUnsignedInt(b.getShort(vtable));
        int declared = (vtableBytes - 4) / 2;
        for (int f = MODEL_FIELDS; f < declared; f++) {
            if (b.getShort(vtable + 4 + 2 * f) != 0) {
                throw new InvalidModelException("the model's root table has field " + f + ", which the schema this "
                        + "writer knows lacks (a newer schema); a rewritten model would drop it");
            }
        }
        int[] fields = new int[MODEL_FIELDS];
        for (int f = 0; f < MODEL_FIELDS && f < declared; f++) {
            int at = Short.toUnsignedInt(b.getShort(vtable + 4 + 2 * f));
            if (at != 0) {
                fields[f] = f == VERSION ? b.getInt(root + at) : root + at + b.getInt(root + at);
            }
        }
        return fields;
    }

    /** The absolute places of a vector of tables' elements; none for an absent vector. */
    private static int[] tables(ByteBuffer b, int vector) {
        if (vector == 0) {
            return new int[0];
        }
        int[] tables = new int[b.getInt(vector)];
        for (int i = 0; i < tables.length; i++) {
            int slot = vector + 4 + 4 * i;
            tables[i] = slot + b.getInt(slot);
        }
        return tables;
    }

    /** A scalar uint64 field of a table, 0 when absent. */
    private static long fieldValue(ByteBuffer b, int table, int field) {
        int vtable = table - b.getInt(table);
        int vtableBytes = Short.toUnsignedInt(b.getShort(vtable));
        if (4 + 2 * field >= vtableBytes) {
            return 0;
        }
        int at = Short.toUnsignedInt(b.getShort(vtable + 4 + 2 * field));
        return at == 0 ? 0 : b.getLong(table + at);
    }

    /**
     * The prefix as it is laid out: a uoffset written before its target's place is known is recorded and
     * patched at the end, when the prefix's length, and so where the old model lands, is known.
     */
    private static final class Prefix {
        private final byte[] name;
        private final byte[] data;
        private final List<int[]> toOld = new ArrayList<>();
        private final List<int[]> toNew = new ArrayList<>();
        private final int modelBytes;

        Prefix(int modelBytes, byte[] name, byte[] data) {
            this.modelBytes = modelBytes;
            this.name = name;
            this.data = data;
        }

        byte[] write(ByteBuffer old, int oldRoot, int[] fields, int[] buffers, int[] metadata, int replaced,
                     int buffer) {
            boolean sentinel = buffers.length == 0;
            int bufferCount = Math.max(buffers.length, buffer + 1);
            int metadataCount = replaced < 0 ? metadata.length + 1 : metadata.length;
            ByteBuffer b = ByteBuffer.allocate(256 + 4 * (bufferCount + metadataCount) + name.length + data.length
                    + 2 * ALIGNMENT).order(ByteOrder.LITTLE_ENDIAN);
            // Header: the root's uoffset, the identifier.
            b.putInt(0).put(TfliteFile.IDENTIFIER.getBytes(StandardCharsets.ISO_8859_1));
            // The root table's vtable: every field at a 4-byte slot after the table's soffset.
            int vtable = b.position();
            b.putShort((short) (4 + 2 * MODEL_FIELDS)).putShort((short) (4 + 4 * MODEL_FIELDS));
            for (int f = 0; f < MODEL_FIELDS; f++) {
                boolean present = f == VERSION || f == BUFFERS || f == METADATA || fields[f] != 0;
                b.putShort((short) (present ? 4 + 4 * f : 0));
            }
            int table = b.position();
            b.putInt(0, table);
            b.putInt(table - vtable);
            int[] slots = new int[MODEL_FIELDS];
            for (int f = 0; f < MODEL_FIELDS; f++) {
                slots[f] = b.position();
                b.putInt(f == VERSION ? fields[f] : 0);
                if (f != VERSION && f != BUFFERS && f != METADATA && fields[f] != 0) {
                    toOld.add(new int[]{slots[f], fields[f]});
                }
            }
            int bufferVector = vector(b, slots[BUFFERS], bufferCount);
            for (int i = 0; i < buffers.length; i++) {
                if (i != buffer) {
                    toOld.add(new int[]{bufferVector + 4 + 4 * i, buffers[i]});
                }
            }
            int metadataVector = vector(b, slots[METADATA], metadataCount);
            for (int i = 0; i < metadata.length; i++) {
                if (i != replaced) {
                    toOld.add(new int[]{metadataVector + 4 + 4 * i, metadata[i]});
                }
            }
            if (sentinel) {
                // Buffer 0 means "no data" to every tensor: an empty one stands there before the entry's.
                toNew.add(new int[]{bufferVector + 4, emptyBuffer(b)});
            }
            int entry = metadataTable(b, buffer);
            toNew.add(new int[]{metadataVector + 4 + 4 * (replaced < 0 ? metadata.length : replaced), entry});
            toNew.add(new int[]{bufferVector + 4 + 4 * buffer, dataBuffer(b)});
            align(b, ALIGNMENT, 0);
            int length = b.position();
            for (int[] p : toNew) {
                b.putInt(p[0], p[1] - p[0]);
            }
            for (int[] p : toOld) {
                b.putInt(p[0], length + p[1] - p[0]);
            }
            byte[] result = Arrays.copyOf(b.array(), length + modelBytes);
            old.get(0, result, length, modelBytes);
            return result;
        }

        /** A vector of {@code count} table offsets, filled in later; the model's field points at it. */
        private int vector(ByteBuffer b, int field, int count) {
            int at = b.position();
            toNew.add(new int[]{field, at});
            b.putInt(count);
            for (int i = 0; i < count; i++) {
                b.putInt(0);
            }
            return at;
        }

        private static int emptyBuffer(ByteBuffer b) {
            int vtable = b.position();
            b.putShort((short) 4).putShort((short) 4);
            int table = b.position();
            b.putInt(table - vtable);
            return table;
        }

        /** Metadata {name, buffer}, then its name as a flatbuffer string (length, UTF-8, a terminating 0). */
        private int metadataTable(ByteBuffer b, int buffer) {
            int vtable = b.position();
            b.putShort((short) 8).putShort((short) 12).putShort((short) 4).putShort((short) 8);
            int table = b.position();
            b.putInt(table - vtable);
            int nameSlot = b.position();
            b.putInt(0);
            b.putInt(buffer);
            toNew.add(new int[]{nameSlot, b.position()});
            b.putInt(name.length).put(name).put((byte) 0);
            align(b, 4, 0);
            return table;
        }

        /** Buffer {data}, its data vector's bytes starting on a 16-byte boundary. */
        private int dataBuffer(ByteBuffer b) {
            int vtable = b.position();
            b.putShort((short) 6).putShort((short) 8).putShort((short) 4);
            align(b, 4, 0);
            int table = b.position();
            b.putInt(table - vtable);
            int dataSlot = b.position();
            b.putInt(0);
            align(b, ALIGNMENT, ALIGNMENT - 4);
            toNew.add(new int[]{dataSlot, b.position()});
            b.putInt(data.length).put(data);
            return table;
        }

        /** Zero bytes until the position is {@code remainder} past a multiple of {@code alignment}. */
        private static void align(ByteBuffer b, int alignment, int remainder) {
            while (b.position() % alignment != remainder) {
                b.put((byte) 0);
            }
        }
    }
}
