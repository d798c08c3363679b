package dev.tflitearena.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The places in a {@code .tflite} flatbuffer where a reader trusts a number to find or size something: the
 * root offset, vtable entries, vector lengths, tensor dimensions, buffer, opcode and tensor indices. Found by
 * walking the schema's tables by field id, so a mutation can hit them on purpose rather than by chance.
 * A walk that leaves the file stops there and keeps what it found.
 */
final class FlatBufferSites {
    enum Kind { ROOT_OFFSET, VTABLE_ENTRY, VECTOR_LENGTH, TENSOR_DIMENSION, BUFFER_INDEX, OPCODE_INDEX, OPERATOR_TENSOR }

    /**
     * @param width bytes the number takes: 2 (a vtable entry) or 4
     * @param count how many things the number may index (tensors, buffers, opcodes), or 0 when it is no index
     */
    record Site(Kind kind, int position, int width, int count) {
    }

    // Field ids of schema.fbs: Model, SubGraph, Tensor, Operator.
    private static final int MODEL_OPERATOR_CODES = 1;
    private static final int MODEL_SUBGRAPHS = 2;
    private static final int MODEL_BUFFERS = 4;
    private static final int SUBGRAPH_TENSORS = 0;
    private static final int SUBGRAPH_INPUTS = 1;
    private static final int SUBGRAPH_OUTPUTS = 2;
    private static final int SUBGRAPH_OPERATORS = 3;
    private static final int TENSOR_SHAPE = 0;
    private static final int TENSOR_BUFFER = 2;
    private static final int OPERATOR_OPCODE_INDEX = 0;
    private static final int OPERATOR_INPUTS = 1;
    private static final int OPERATOR_OUTPUTS = 2;

    private final ByteBuffer bb;
    private final List<Site> sites = new ArrayList<>();

    private FlatBufferSites(byte[] model) {
        this.bb = ByteBuffer.wrap(model).order(ByteOrder.LITTLE_ENDIAN);
    }

    static List<Site> of(byte[] model) {
        FlatBufferSites walk = new FlatBufferSites(model);
        try {
            walk.model();
        } catch (IndexOutOfBoundsException e) {
            // A model the walk cannot follow is still mutated at the sites found before.
        }
        return List.copyOf(walk.sites);
    }

    private void model() {
        sites.add(new Site(Kind.ROOT_OFFSET, 0, 4, 0));
        int root = bb.getInt(0);
        int opcodes = length(field(root, MODEL_OPERATOR_CODES));
        int buffers = length(field(root, MODEL_BUFFERS));
        int subgraphs = field(root, MODEL_SUBGRAPHS);
        for (int s = 0; s < length(subgraphs); s++) {
            subgraph(table(element(subgraphs, s)), opcodes, buffers);
        }
    }

    private void subgraph(int subgraph, int opcodes, int buffers) {
        int tensors = field(subgraph, SUBGRAPH_TENSORS);
        int tensorCount = length(tensors);
        for (int t = 0; t < tensorCount; t++) {
            int tensor = table(element(tensors, t));
            indices(field(tensor, TENSOR_SHAPE), Kind.TENSOR_DIMENSION, 0);
            int buffer = field(tensor, TENSOR_BUFFER);
            if (buffer >= 0) {
                sites.add(new Site(Kind.BUFFER_INDEX, buffer, 4, buffers));
            }
        }
        indices(field(subgraph, SUBGRAPH_INPUTS), Kind.OPERATOR_TENSOR, tensorCount);
        indices(field(subgraph, SUBGRAPH_OUTPUTS), Kind.OPERATOR_TENSOR, tensorCount);
        int operators = field(subgraph, SUBGRAPH_OPERATORS);
        for (int o = 0; o < length(operators); o++) {
            int operator = table(element(operators, o));
            int opcode = field(operator, OPERATOR_OPCODE_INDEX);
            if (opcode >= 0) {
                sites.add(new Site(Kind.OPCODE_INDEX, opcode, 4, opcodes));
            }
            indices(field(operator, OPERATOR_INPUTS), Kind.OPERATOR_TENSOR, tensorCount);
            indices(field(operator, OPERATOR_OUTPUTS), Kind.OPERATOR_TENSOR, tensorCount);
        }
    }

    /** Every element of an int vector the field points to. */
    private void indices(int field, Kind kind, int count) {
        for (int i = 0; i < length(field); i++) {
            sites.add(new Site(kind, element(field, i), 4, count));
        }
    }

    /** The absolute position of a table's field, or -1 when the table lacks it; records its vtable entry. */
    private int field(int table, int id) {
        int vtable = table - bb.getInt(table);
        int entry = 4 + 2 * id;
        if (entry >= Short.toUnsignedInt(bb.getShort(vtable))) {
            return -1;
        }
        sites.add(new Site(Kind.VTABLE_ENTRY, vtable + entry, 2, 0));
        int offset = Short.toUnsignedInt(bb.getShort(vtable + entry));
        return offset == 0 ? -1 : table + offset;
    }

    /** The length of the vector a field points to, 0 for an absent field; records the length's site. */
    private int length(int field) {
        if (field < 0) {
            return 0;
        }
        int vector = table(field);
        sites.add(new Site(Kind.VECTOR_LENGTH, vector, 4, 0));
        int length = bb.getInt(vector);
        // A length past the file's end cannot be walked; the site is still recorded.
        return length < 0 || length > (bb.limit() - vector) / 4 ? 0 : length;
    }

    private int element(int field, int i) {
        return table(field) + 4 + 4 * i;
    }

    /** Follows the unsigned offset stored at {@code position}. */
    private int table(int position) {
        return position + bb.getInt(position);
    }
}
