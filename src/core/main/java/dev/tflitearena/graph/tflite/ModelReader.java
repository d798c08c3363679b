package dev.tflitearena.graph.tflite;

import com.google.flatbuffers.Table;
import dev.tflitearena.graph.TensorType;
import org.tensorflow.lite.schema.Buffer;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.CallOnceOptions;
import org.tensorflow.lite.schema.IfOptions;
import org.tensorflow.lite.schema.Metadata;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.Operator;
import org.tensorflow.lite.schema.OperatorCode;
import org.tensorflow.lite.schema.QuantizationParameters;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.Tensor;
import org.tensorflow.lite.schema.WhileOptions;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Walks one model's flatbuffer through the generated schema accessors, trusting nothing in it. The accessors
 * bounds-check every read against the heap buffer and throw a RuntimeException when an offset leads outside
 * it; {@link TfliteFile} turns that into an InvalidModelException naming {@link #where()}. What the accessors
 * cannot see is checked here: no vector may claim more elements than the file holds, checked before anything
 * is allocated for them; every index must refer to something; and the total work is capped by the file's
 * size, since a hostile file can point many tables at one long vector.
 */
final class ModelReader {
    /** Work units (vector elements and string bytes visited) allowed per byte of file, plus a floor. */
    private static final long WORK_PER_BYTE = 16;
    private static final long WORK_FLOOR = 1 << 16;

    private final ByteBuffer bb;
    private final int size;
    private long workLeft;
    private String where = "the root table";

    private int operatorCodeCount;
    private String[] opNames;
    private int[] opBuiltinCodes;
    private int[] opVersions;
    private int bufferCount;
    private int subgraphCount;
    private Model model;

    ModelReader(byte[] bytes) {
        this.bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        this.size = bytes.length;
        this.workLeft = WORK_PER_BYTE * size + WORK_FLOOR;
    }

    /** Where the walk is, for the message of an exception the accessors throw. */
    String where() {
        return where;
    }

    TfliteModel read() {
        model = Model.getRootAsModel(bb);
        where = "the model table";
        long version = model.version();
        if (version != TfliteModelBuilder.SCHEMA_VERSION) {
            throw new InvalidModelException("schema version " + version + "; TFLite reads version "
                    + TfliteModelBuilder.SCHEMA_VERSION);
        }
        String description = text(model.descriptionAsByteBuffer());
        readOperatorCodes();
        where = "the buffers";
        bufferCount = count(model.buffersLength(), "the model's buffers");
        subgraphCount = count(model.subgraphsLength(), "the model's subgraphs");
        if (subgraphCount == 0) {
            throw new InvalidModelException("the model has no subgraph");
        }
        List<TfliteSubgraph> subgraphs = new ArrayList<>(subgraphCount);
        for (int s = 0; s < subgraphCount; s++) {
            where = "subgraph " + s;
            subgraphs.add(subgraph(model.subgraphs(s), s));
        }
        return new TfliteModel(version, description, bufferCount, subgraphs, metadata());
    }

    private List<TfliteModel.Metadata> metadata() {
        where = "the metadata";
        int count = count(model.metadataLength(), "the model's metadata");
        List<TfliteModel.Metadata> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            where = "metadata " + i;
            Metadata m = model.metadata(i);
            String name = text(m.nameAsByteBuffer());
            long buffer = m.buffer();
            if (buffer >= bufferCount) {
                throw new InvalidModelException(where + " ('" + name + "') refers to buffer " + buffer
                        + ", the model has " + bufferCount);
            }
            ByteBuffer view = model.buffers((int) buffer).dataAsByteBuffer();
            byte[] data = new byte[(int) dataBytes((int) buffer)];
            spend(data.length);
            if (view != null) {
                view.get(data);
            }
            entries.add(new TfliteModel.Metadata(name, (int) buffer, data));
        }
        return entries;
    }

    private void readOperatorCodes() {
        where = "the operator codes";
        operatorCodeCount = count(model.operatorCodesLength(), "the model's operator codes");
        opNames = new String[operatorCodeCount];
        opBuiltinCodes = new int[operatorCodeCount];
        opVersions = new int[operatorCodeCount];
        for (int i = 0; i < operatorCodeCount; i++) {
            where = "operator code " + i;
            OperatorCode code = model.operatorCodes(i);
            // schema_utils' GetBuiltinCode: files from before builtin_code existed hold only the deprecated byte.
            int builtin = Math.max(code.builtinCode(), code.deprecatedBuiltinCode());
            if (builtin < 0) {
                throw new InvalidModelException(where + " has builtin code " + builtin);
            }
            String name;
            if (builtin == BuiltinOperator.CUSTOM) {
                name = text(code.customCodeAsByteBuffer());
                if (name.isEmpty()) {
                    throw new InvalidModelException(where + " is CUSTOM but names no custom op");
                }
            } else {
                name = builtin < BuiltinOperator.names.length ? BuiltinOperator.name(builtin) : "BUILTIN_" + builtin;
            }
            opNames[i] = name;
            opBuiltinCodes[i] = builtin;
            opVersions[i] = code.version();
        }
    }

    private TfliteSubgraph subgraph(SubGraph s, int index) {
        String at = "subgraph " + index;
        String name = text(s.nameAsByteBuffer());
        int tensorCount = count(s.tensorsLength(), at + " tensors");
        List<TfliteTensor> tensors = new ArrayList<>(tensorCount);
        for (int t = 0; t < tensorCount; t++) {
            where = "tensor " + t + " of subgraph " + index;
            tensors.add(tensor(s.tensors(t), t));
        }
        where = at;
        int[] inputs = tensorIndices(s.inputsAsByteBuffer(), tensorCount, at + " inputs");
        int[] outputs = tensorIndices(s.outputsAsByteBuffer(), tensorCount, at + " outputs");
        int operatorCount = count(s.operatorsLength(), at + " operators");
        List<TfliteOperator> operators = new ArrayList<>(operatorCount);
        for (int o = 0; o < operatorCount; o++) {
            where = "operator " + o + " of subgraph " + index;
            operators.add(operator(s.operators(o), tensorCount));
        }
        return new TfliteSubgraph(index, name, tensors, operators, inputs, outputs);
    }

    private TfliteTensor tensor(Tensor t, int index) {
        String name = text(t.nameAsByteBuffer());
        int[] shape = ints(t.shapeAsByteBuffer(), where + ": shape");
        for (int d : shape) {
            if (d < 0) {
                throw new InvalidModelException(where + " has shape " + Arrays.toString(shape)
                        + ": a negative dimension (dynamic ones belong in shape_signature)");
            }
        }
        int[] signature = t.shapeSignatureAsByteBuffer() == null ? null : ints(t.shapeSignatureAsByteBuffer(),
                where + ": shape_signature");
        if (signature != null) {
            for (int d : signature) {
                if (d < -1) {
                    throw new InvalidModelException(where + " has shape_signature " + Arrays.toString(signature)
                            + ": a dimension below -1");
                }
            }
        }
        TensorType type = SchemaTypes.type(t.type());
        long elements = 1;
        long bytes;
        try {
            for (int d : shape) {
                elements = Math.multiplyExact(elements, d);
            }
            bytes = bytes(type, shape, elements);
        } catch (ArithmeticException e) {
            throw new InvalidModelException(where + " has shape " + Arrays.toString(shape)
                    + ", too large for its size to fit a long");
        }
        long buffer = t.buffer();
        if (buffer >= bufferCount) {
            throw new InvalidModelException(where + " refers to buffer " + buffer + ", the model has " + bufferCount);
        }
        long dataBytes = dataBytes((int) buffer);
        boolean variable = t.isVariable();
        if (variable && dataBytes > 0) {
            throw new InvalidModelException(where + " is a variable with constant data in buffer " + buffer
                    + ", which TFLite refuses");
        }
        return new TfliteTensor(index, name, type, shape, signature, bytes, dataBytes > 0, variable, (int) buffer,
                dataBytes, t.sparsity() != null, quantization(t.quantization()));
    }

    /**
     * Element count times element size; TFLite 2.20 packs INT4 two to a byte over the whole tensor (checked
     * against the runtime), and INT2, which it does not load yet, is taken as four to a byte. -1 for STRING,
     * RESOURCE, VARIANT and unknown types.
     */
    private static long bytes(TensorType type, int[] shape, long elements) {
        if (type == TensorType.INT4) {
            return (elements + 1) / 2;
        }
        if (type == TensorType.INT2) {
            return (elements + 3) / 4;
        }
        return type == null ? -1 : type.bytesFor(shape);
    }

    private long dataBytes(int buffer) {
        Buffer b = model.buffers(buffer);
        ByteBuffer data = b.dataAsByteBuffer();
        if (data == null) {
            return 0;
        }
        // The view's limit is start + length, computed in int: a length the file cannot hold shows here.
        if (data.remaining() != b.dataLength()) {
            throw new InvalidModelException(where + ": buffer " + buffer + " claims " + b.dataLength()
                    + " bytes of data, more than the file holds");
        }
        return data.remaining();
    }

    private Quantization quantization(QuantizationParameters q) {
        if (q == null) {
            return null;
        }
        ByteBuffer scaleView = q.scaleAsByteBuffer();
        int scales = scaleView == null ? 0 : length(scaleView, Float.BYTES, where + ": quantization scale");
        if (scales == 0) {
            return null;
        }
        ByteBuffer zeroView = q.zeroPointAsByteBuffer();
        int zeros = zeroView == null ? 0 : length(zeroView, Long.BYTES, where + ": quantization zero_point");
        if (zeros != scales) {
            throw new InvalidModelException(where + " has " + scales + " quantization scales but " + zeros
                    + " zero points");
        }
        spend(2L * scales);
        float[] scale = new float[scales];
        long[] zeroPoint = new long[scales];
        for (int i = 0; i < scales; i++) {
            scale[i] = scaleView.getFloat(scaleView.position() + i * Float.BYTES);
            zeroPoint[i] = zeroView.getLong(zeroView.position() + i * Long.BYTES);
        }
        int axis = q.quantizedDimension();
        if (axis < 0) {
            throw new InvalidModelException(where + " has quantized_dimension " + axis);
        }
        return new Quantization(scale, zeroPoint, axis);
    }

    private TfliteOperator operator(Operator o, int tensorCount) {
        long code = o.opcodeIndex();
        if (code >= operatorCodeCount) {
            throw new InvalidModelException(where + " refers to operator code " + code + ", the model has "
                    + operatorCodeCount);
        }
        int c = (int) code;
        String at = where + " (" + opNames[c] + ")";
        return new TfliteOperator(opNames[c], opBuiltinCodes[c], opVersions[c],
                tensorIndices(o.inputsAsByteBuffer(), tensorCount, at + " inputs"),
                tensorIndices(o.outputsAsByteBuffer(), tensorCount, at + " outputs"),
                tensorIndices(o.intermediatesAsByteBuffer(), tensorCount, at + " intermediates"),
                calledSubgraphs(o, at));
    }

    /** The subgraphs control flow names in its options, in their order there; each must exist. */
    private int[] calledSubgraphs(Operator o, String at) {
        return switch (o.builtinOptionsType()) {
            case BuiltinOptions.WhileOptions -> {
                WhileOptions loop = (WhileOptions) options(o, new WhileOptions(), at);
                yield new int[]{subgraphReference(loop.condSubgraphIndex(), at, "condition"),
                        subgraphReference(loop.bodySubgraphIndex(), at, "body")};
            }
            case BuiltinOptions.IfOptions -> {
                IfOptions branch = (IfOptions) options(o, new IfOptions(), at);
                yield new int[]{subgraphReference(branch.thenSubgraphIndex(), at, "then branch"),
                        subgraphReference(branch.elseSubgraphIndex(), at, "else branch")};
            }
            case BuiltinOptions.CallOnceOptions -> new int[]{subgraphReference(
                    ((CallOnceOptions) options(o, new CallOnceOptions(), at)).initSubgraphIndex(), at, "init")};
            default -> new int[0];
        };
    }

    private static Table options(Operator o, Table table, String at) {
        Table options = o.builtinOptions(table);
        if (options == null) {
            throw new InvalidModelException(at + " declares " + BuiltinOptions.name(o.builtinOptionsType())
                    + " but holds none");
        }
        return options;
    }

    private int subgraphReference(int index, String at, String role) {
        if (index < 0 || index >= subgraphCount) {
            throw new InvalidModelException(at + " refers to subgraph " + index + " as its " + role
                    + ", the model has " + subgraphCount);
        }
        return index;
    }

    /** Tensor indices below {@code count}; -1 is an absent optional tensor. */
    private int[] tensorIndices(ByteBuffer view, int count, String what) {
        int[] indices = view == null ? new int[0] : ints(view, what);
        for (int i = 0; i < indices.length; i++) {
            if (indices[i] < -1 || indices[i] >= count) {
                throw new InvalidModelException(what + "[" + i + "] is " + indices[i]
                        + ", which refers to no tensor (the subgraph has " + count + ")");
            }
        }
        return indices;
    }

    /** An int vector through its byte view, whose bounds the view has checked. */
    private int[] ints(ByteBuffer view, String what) {
        if (view == null) {
            return new int[0];
        }
        int n = length(view, Integer.BYTES, what);
        spend(n);
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = view.getInt(view.position() + i * Integer.BYTES);
        }
        return values;
    }

    /**
     * The element count of a scalar vector's view. The accessor computes the view's limit as start + length
     * times element size in int arithmetic, which throws when it passes the file's end but can wrap around;
     * the length prefix before the start tells the truth.
     */
    private int length(ByteBuffer view, int elementSize, String what) {
        int start = view.position();
        int declared = bb.getInt(start - Integer.BYTES);
        if (declared < 0 || (long) declared * elementSize != view.remaining()) {
            throw new InvalidModelException(what + " claims " + Integer.toUnsignedString(declared)
                    + " elements, more than the file holds");
        }
        return declared;
    }

    /** A string through its byte view, "" when absent; malformed UTF-8 reads as replacement characters. */
    private String text(ByteBuffer view) {
        if (view == null) {
            return "";
        }
        int n = length(view, 1, where + ": a string");
        spend(n);
        byte[] utf8 = new byte[n];
        view.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** A table vector's length, checked against what the rest of the file could hold (4 bytes an entry). */
    private int count(int declared, String what) {
        if (declared < 0 || declared > size / Integer.BYTES) {
            throw new InvalidModelException(what + ": " + Integer.toUnsignedString(declared)
                    + " entries, more than a file of " + size + " bytes holds");
        }
        spend(declared);
        return declared;
    }

    private void spend(long units) {
        workLeft -= units;
        if (workLeft < 0) {
            throw new InvalidModelException(where + ": the tables refer to far more data than the file's " + size
                    + " bytes hold (vectors shared over and over)");
        }
    }
}
