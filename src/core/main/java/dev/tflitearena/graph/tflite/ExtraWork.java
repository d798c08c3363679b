package dev.tflitearena.graph.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.tflitearena.graph.TensorType;
import org.tensorflow.lite.schema.ActivationFunctionType;
import org.tensorflow.lite.schema.AddOptionsT;
import org.tensorflow.lite.schema.BufferT;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.Metadata;
import org.tensorflow.lite.schema.MetadataT;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.ModelT;
import org.tensorflow.lite.schema.Operator;
import org.tensorflow.lite.schema.OperatorCode;
import org.tensorflow.lite.schema.OperatorCodeT;
import org.tensorflow.lite.schema.OperatorT;
import org.tensorflow.lite.schema.SignatureDef;
import org.tensorflow.lite.schema.SignatureDefT;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.SubGraphT;
import org.tensorflow.lite.schema.TensorT;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Makes a model slower by work of a known kind, computing the same: a chain of ADD operators appended to the
 * end of subgraph 0, over its first float32 graph input x, t1 = x + x, then t(k+1) = t(k) + x, so that t(k)
 * is (k + 1) x, finite for any count. Each t(k) is a new float32 tensor of x's shape and shape signature, and
 * the last is a new graph output after the existing ones, so that no kernel can skip the chain and every
 * existing output keeps its index. ADD's cost grows with x's size alone, so the extra time is in proportion
 * to the count: what a release-regression detector can be checked against.
 *
 * <p>The rest of the model means what it meant: the other subgraphs, the buffers (their data 16-aligned, as
 * the converter writes it), the metadata, the signatures (which do not list the new output). The model goes
 * through the schema's object API, which reads an absent vector as an empty one; where the two differ (a
 * tensor without a shape signature, a custom operator without options) the absence is kept. Fields of a
 * schema newer than {@code org.tensorflow.lite.schema}'s inside the tables are not kept; a root table with
 * such fields, or buffers with data outside the flatbuffer, are refused.
 */
public final class ExtraWork {
    /** The new tensors are named so, followed by k. */
    public static final String TENSOR_PREFIX = "tflite_arena_extra_work_";
    /** The ADD version whose kernel takes float32 inputs of equal shapes. */
    private static final int ADD_VERSION = 1;

    private ExtraWork() {
    }

    /**
     * The model with {@code operations} ADD operators appended to subgraph 0, as the class describes.
     *
     * @throws InvalidModelException    for a model the reader cannot read, as {@link TfliteFile#read(byte[])} says
     * @throws IllegalArgumentException when {@code operations} is below 1, or subgraph 0 has no float32 input
     */
    public static byte[] append(byte[] model, int operations) {
        if (operations < 1) {
            throw new IllegalArgumentException("the number of extra operations must be at least 1, got " + operations);
        }
        int x = input(TfliteFile.read(model)).index();
        MetadataWriter.checkRewritable(model);
        Model original = Model.getRootAsModel(ByteBuffer.wrap(model).order(ByteOrder.LITTLE_ENDIAN));
        ModelT unpacked = original.unpack();
        keepAbsentVectors(original, unpacked);

        SubGraphT s = unpacked.getSubgraphs()[0];
        TensorT input = s.getTensors()[x];
        int add = addCode(unpacked);
        int noData = bufferWithoutData(unpacked);
        TensorT[] tensors = Arrays.copyOf(s.getTensors(), s.getTensors().length + operations);
        OperatorT[] operators = Arrays.copyOf(s.getOperators(), s.getOperators().length + operations);
        int previous = x;
        for (int k = 1; k <= operations; k++) {
            int t = s.getTensors().length + k - 1;
            tensors[t] = chainTensor(TENSOR_PREFIX + k, input, noData);
            operators[s.getOperators().length + k - 1] = add(add, previous, x, t);
            previous = t;
        }
        s.setTensors(tensors);
        s.setOperators(operators);
        int[] outputs = Arrays.copyOf(s.getOutputs(), s.getOutputs().length + 1);
        outputs[outputs.length - 1] = previous;
        s.setOutputs(outputs);
        return pack(unpacked, model.length);
    }

    /**
     * The tensor the chain reads: subgraph 0's first float32 graph input.
     *
     * @throws IllegalArgumentException when it has none, naming its inputs and their types
     */
    public static TfliteTensor input(TfliteModel model) {
        TfliteSubgraph s = model.subgraph(0);
        for (int i : s.inputs()) {
            if (s.tensor(i).type() == TensorType.FLOAT32) {
                return s.tensor(i);
            }
        }
        String inputs = Arrays.stream(s.inputs()).mapToObj(i -> "'" + s.tensor(i).name() + "' ("
                + s.tensor(i).typeName() + ")").collect(Collectors.joining(", "));
        throw new IllegalArgumentException("subgraph 0 has no float32 input for the extra ADD operators to read; its"
                + " inputs are " + (inputs.isEmpty() ? "none" : inputs));
    }

    /**
     * Puts back the absence of the vectors whose absence means something else than an empty one: to this
     * package's reader a shape signature (none, not rank 0), to TFLite a custom operator's options (its init
     * gets no buffer, not an empty one).
     */
    private static void keepAbsentVectors(Model original, ModelT unpacked) {
        for (int s = 0; s < original.subgraphsLength(); s++) {
            SubGraph subgraph = original.subgraphs(s);
            TensorT[] tensors = unpacked.getSubgraphs()[s].getTensors();
            for (int t = 0; t < tensors.length; t++) {
                if (subgraph.tensors(t).shapeSignatureAsByteBuffer() == null) {
                    tensors[t].setShapeSignature(null);
                }
            }
            OperatorT[] operators = unpacked.getSubgraphs()[s].getOperators();
            for (int o = 0; o < operators.length; o++) {
                Operator operator = subgraph.operators(o);
                if (operator.customOptionsAsByteBuffer() == null) {
                    operators[o].setCustomOptions(null);
                }
            }
        }
    }

    /** The index of the model's ADD version 1 code, added when it has none. */
    private static int addCode(ModelT model) {
        OperatorCodeT[] codes = model.getOperatorCodes();
        for (int i = 0; i < codes.length; i++) {
            // schema_utils' GetBuiltinCode, as the reader takes it.
            int builtin = Math.max(codes[i].getBuiltinCode(), codes[i].getDeprecatedBuiltinCode());
            if (builtin == BuiltinOperator.ADD && codes[i].getVersion() == ADD_VERSION) {
                return i;
            }
        }
        OperatorCodeT add = new OperatorCodeT();
        add.setBuiltinCode(BuiltinOperator.ADD);
        add.setDeprecatedBuiltinCode((byte) BuiltinOperator.ADD);
        add.setVersion(ADD_VERSION);
        codes = Arrays.copyOf(codes, codes.length + 1);
        codes[codes.length - 1] = add;
        model.setOperatorCodes(codes);
        return codes.length - 1;
    }

    /** Buffer 0, empty by TFLite's convention; in a model where it holds data, a new empty buffer. */
    private static int bufferWithoutData(ModelT model) {
        BufferT[] buffers = model.getBuffers();
        if (buffers.length > 0 && buffers[0].getData().length == 0) {
            return 0;
        }
        BufferT empty = new BufferT();
        empty.setData(new int[0]);
        buffers = Arrays.copyOf(buffers, buffers.length + 1);
        buffers[buffers.length - 1] = empty;
        model.setBuffers(buffers);
        return buffers.length - 1;
    }

    private static TensorT chainTensor(String name, TensorT input, int buffer) {
        TensorT t = new TensorT();
        t.setName(name);
        t.setType(SchemaTypes.code(TensorType.FLOAT32));
        t.setShape(input.getShape().clone());
        t.setShapeSignature(input.getShapeSignature() == null ? null : input.getShapeSignature().clone());
        t.setHasRank(input.getHasRank());
        t.setBuffer(buffer);
        return t;
    }

    private static OperatorT add(int code, int a, int b, int sum) {
        AddOptionsT options = new AddOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        OperatorT o = new OperatorT();
        o.setOpcodeIndex(code);
        o.setInputs(new int[]{a, b});
        o.setOutputs(new int[]{sum});
        o.setBuiltinOptions(TfliteModelBuilder.options(BuiltinOptions.AddOptions, options));
        return o;
    }

    /**
     * Model.pack, but with each buffer's data 16-aligned as {@link TfliteModelBuilder} writes it; the builder
     * starts at about the size of the model it was read from, so that it does not grow by copying.
     */
    private static byte[] pack(ModelT model, int sizeHint) {
        FlatBufferBuilder fbb = new FlatBufferBuilder(sizeHint + 1024);
        BufferT[] buffers = model.getBuffers();
        int[] bufferOffsets = new int[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            bufferOffsets[i] = TfliteModelBuilder.packBuffer(fbb, bytes(buffers[i].getData()));
        }
        int[] codeOffsets = Arrays.stream(model.getOperatorCodes()).mapToInt(c -> OperatorCode.pack(fbb, c)).toArray();
        int[] subgraphOffsets = Arrays.stream(model.getSubgraphs()).mapToInt(s -> SubGraph.pack(fbb, s)).toArray();
        int description = model.getDescription() == null ? 0 : fbb.createString(model.getDescription());
        int metadataBuffer = Model.createMetadataBufferVector(fbb, model.getMetadataBuffer());
        int[] metadataOffsets = Arrays.stream(model.getMetadata()).mapToInt((MetadataT m) -> Metadata.pack(fbb, m))
                .toArray();
        int[] signatureOffsets = Arrays.stream(model.getSignatureDefs())
                .mapToInt((SignatureDefT d) -> SignatureDef.pack(fbb, d)).toArray();
        int root = Model.createModel(fbb, model.getVersion(),
                Model.createOperatorCodesVector(fbb, codeOffsets),
                Model.createSubgraphsVector(fbb, subgraphOffsets),
                description,
                Model.createBuffersVector(fbb, bufferOffsets),
                metadataBuffer,
                Model.createMetadataVector(fbb, metadataOffsets),
                Model.createSignatureDefsVector(fbb, signatureOffsets));
        Model.finishModelBuffer(fbb, root);
        return fbb.sizedByteArray();
    }

    /** The object API holds a buffer's bytes as ints. */
    private static byte[] bytes(int[] data) {
        byte[] bytes = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            bytes[i] = (byte) data[i];
        }
        return bytes;
    }
}
