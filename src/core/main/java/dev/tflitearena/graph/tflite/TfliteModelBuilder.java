package dev.tflitearena.graph.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.tflitearena.graph.TensorType;
import org.tensorflow.lite.schema.Buffer;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptionsUnion;
import org.tensorflow.lite.schema.DimensionMetadataT;
import org.tensorflow.lite.schema.DimensionType;
import org.tensorflow.lite.schema.Int32VectorT;
import org.tensorflow.lite.schema.Metadata;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.OperatorCode;
import org.tensorflow.lite.schema.OperatorCodeT;
import org.tensorflow.lite.schema.OperatorT;
import org.tensorflow.lite.schema.QuantizationParametersT;
import org.tensorflow.lite.schema.SignatureDef;
import org.tensorflow.lite.schema.SignatureDefT;
import org.tensorflow.lite.schema.SparseIndexVector;
import org.tensorflow.lite.schema.SparseIndexVectorUnion;
import org.tensorflow.lite.schema.SparsityParametersT;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.SubGraphT;
import org.tensorflow.lite.schema.TensorMapT;
import org.tensorflow.lite.schema.TensorT;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds a whole {@code .tflite} model in memory: buffers, subgraphs (the first one added is the primary
 * one; WHILE and IF name the others by index in their options), tensors, operators, graph inputs and
 * outputs, and signatures (a key naming a subgraph's inputs and outputs by names of their own). Buffer 0 is
 * always the empty sentinel TFLite requires. {@link #build()} checks every tensor
 * reference and writes schema version 3 with the identifier "TFL3".
 */
public final class TfliteModelBuilder {
    public static final int SCHEMA_VERSION = 3;
    /** Constant data starts on this boundary, as the TFLite converter writes it, so kernels may read it in place. */
    private static final int DATA_ALIGNMENT = 16;

    private final List<byte[]> buffers = new ArrayList<>(List.of(new byte[0]));
    private final List<SubgraphBuilder> subgraphs = new ArrayList<>();
    private final Map<OpKey, Integer> opcodes = new LinkedHashMap<>();
    /** By key, each made when the model is built, when a subgraph's tensors have their final names. */
    private final Map<String, Supplier<SignatureDefT>> signatures = new LinkedHashMap<>();
    private final Map<String, Integer> metadata = new LinkedHashMap<>();
    private String description = "tflite-arena";

    /** An operator code; TFLite keeps one per (builtin code, custom name, version). */
    private record OpKey(int builtinCode, String customName, int version) {
    }

    public void description(String text) {
        description = text;
    }

    /** Adds a buffer holding {@code data} (little-endian); returns its index, at least 1. */
    public int buffer(byte[] data) {
        buffers.add(data.clone());
        return buffers.size() - 1;
    }

    /** Adds a metadata entry named {@code name} over a buffer of its own holding {@code data}. */
    public void metadata(String name, byte[] data) {
        if (metadata.putIfAbsent(name, buffer(data)) != null) {
            throw new IllegalArgumentException("the model has metadata '" + name + "' already");
        }
    }

    /** Adds a subgraph; the first one added is the primary subgraph, index 0. */
    public SubgraphBuilder subgraph(String name) {
        SubgraphBuilder s = new SubgraphBuilder(subgraphs.size(), name);
        subgraphs.add(s);
        return s;
    }

    /**
     * Adds a signature: {@code key} runs subgraph {@code subgraph}, whose tensors (by index) the maps name, in
     * their iteration order, as TFLite's converter names a SavedModel signature's arguments and results.
     */
    public void signature(String key, int subgraph, Map<String, Integer> inputs, Map<String, Integer> outputs) {
        SignatureDefT signature = signatureDef(key, subgraph, tensorMaps(inputs), tensorMaps(outputs));
        addSignature(key, () -> signature);
    }

    /**
     * A signature named {@code key} that runs {@code subgraph}: its inputs and outputs, each named by its
     * tensor's name, as they are when {@link #build()} runs.
     */
    public void signature(String key, SubgraphBuilder subgraph) {
        addSignature(key, () -> subgraph.signature(key));
    }

    private static SignatureDefT signatureDef(String key, int subgraph, TensorMapT[] inputs, TensorMapT[] outputs) {
        SignatureDefT signature = new SignatureDefT();
        signature.setSignatureKey(key);
        signature.setSubgraphIndex(subgraph);
        signature.setInputs(inputs);
        signature.setOutputs(outputs);
        return signature;
    }

    private void addSignature(String key, Supplier<SignatureDefT> signature) {
        if (signatures.putIfAbsent(key, signature) != null) {
            throw new IllegalArgumentException("signature '" + key + "' is defined twice");
        }
    }

    private static TensorMapT[] tensorMaps(Map<String, Integer> tensors) {
        return tensors.entrySet().stream().map(e -> {
            TensorMapT map = new TensorMapT();
            map.setName(e.getKey());
            map.setTensorIndex(e.getValue());
            return map;
        }).toArray(TensorMapT[]::new);
    }

    /** A builtin options union for {@code operator}: {@code type} from the schema's BuiltinOptions. */
    public static BuiltinOptionsUnion options(byte type, Object value) {
        BuiltinOptionsUnion union = new BuiltinOptionsUnion();
        union.setType(type);
        union.setValue(value);
        return union;
    }

    /** Little-endian bytes of floats, for constant data. */
    public static byte[] littleEndian(float... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    /** Little-endian bytes of ints, for constant data. */
    public static byte[] littleEndian(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    /** One subgraph under construction; its methods return the index of what they add. */
    public final class SubgraphBuilder {
        private final int index;
        private final String name;
        private final List<TensorT> tensors = new ArrayList<>();
        private final List<OperatorT> operators = new ArrayList<>();
        private final List<String> operatorNames = new ArrayList<>();
        private int[] inputs = {};
        private int[] outputs = {};

        private SubgraphBuilder(int index, String name) {
            this.index = index;
            this.name = name;
        }

        public int index() {
            return index;
        }

        /** A plain tensor: not constant, not variable, not quantized. */
        public int tensor(String name, TensorType type, int... shape) {
            return tensor(TensorSpec.of(name, type, shape));
        }

        public int tensor(TensorSpec spec) {
            if (spec.buffer() >= buffers.size()) {
                throw new IllegalArgumentException(where() + "tensor '" + spec.name() + "' refers to buffer "
                        + spec.buffer() + ", the model has " + buffers.size());
            }
            checkData(spec);
            TensorT t = new TensorT();
            t.setName(spec.name());
            t.setType(SchemaTypes.code(spec.type()));
            t.setShape(spec.shape().clone());
            if (spec.shapeSignature() != null) {
                t.setShapeSignature(spec.shapeSignature().clone());
            }
            t.setBuffer(spec.buffer());
            t.setIsVariable(spec.variable());
            if (spec.quantization() != null) {
                QuantizationParametersT q = new QuantizationParametersT();
                q.setScale(spec.quantization().scales().clone());
                q.setZeroPoint(spec.quantization().zeroPoints().clone());
                q.setQuantizedDimension(spec.quantization().axis());
                t.setQuantization(q);
            }
            if (spec.sparsity() != null) {
                t.setSparsity(sparsityParameters(spec.sparsity()));
            }
            tensors.add(t);
            return tensors.size() - 1;
        }

        /** A constant tensor holding {@code data}, little-endian, in a buffer of its own. */
        public int constant(String name, TensorType type, int[] shape, byte[] data) {
            return constant(TensorSpec.of(name, type, shape), data);
        }

        public int constant(TensorSpec spec, byte[] data) {
            checkData(spec, data.length);
            return tensor(spec.withBuffer(buffer(data)));
        }

        /** A builtin operator; {@code options} may be null. Returns the operator's index. */
        public int operator(int builtinCode, int version, int[] inputs, int[] outputs, BuiltinOptionsUnion options) {
            return operator(builtinCode, version, inputs, outputs, new int[0], options);
        }

        public int operator(int builtinCode, int version, int[] inputs, int[] outputs, int[] intermediates,
                            BuiltinOptionsUnion options) {
            if (builtinCode == BuiltinOperator.CUSTOM) {
                throw new IllegalArgumentException(where() + "a CUSTOM operator needs its name: use customOperator");
            }
            if (builtinCode < 0) {
                throw new IllegalArgumentException(where() + "builtin code " + builtinCode + " is negative");
            }
            OperatorT o = newOperator(new OpKey(builtinCode, null, version), inputs, outputs, intermediates);
            o.setBuiltinOptions(options);
            return add(o, builtinCode < BuiltinOperator.names.length ? BuiltinOperator.name(builtinCode)
                    : "BUILTIN_" + builtinCode);
        }

        /** A custom operator named {@code op}, with its options bytes (flexbuffers, as TFLite expects). */
        public int customOperator(String op, int version, int[] inputs, int[] outputs, byte[] customOptions) {
            OperatorT o = newOperator(new OpKey(BuiltinOperator.CUSTOM, op, version), inputs, outputs, new int[0]);
            int[] options = new int[customOptions.length];
            for (int i = 0; i < options.length; i++) {
                options[i] = customOptions[i] & 0xFF;
            }
            o.setCustomOptions(options);
            return add(o, op);
        }

        private OperatorT newOperator(OpKey key, int[] inputs, int[] outputs, int[] intermediates) {
            if (key.version() < 1) {
                throw new IllegalArgumentException(where() + "operator version must be at least 1, got "
                        + key.version());
            }
            OperatorT o = new OperatorT();
            o.setOpcodeIndex(opcodes.computeIfAbsent(key, k -> opcodes.size()));
            o.setInputs(inputs.clone());
            o.setOutputs(outputs.clone());
            o.setIntermediates(intermediates.clone());
            return o;
        }

        private int add(OperatorT o, String op) {
            operators.add(o);
            operatorNames.add(op);
            return operators.size() - 1;
        }

        public void inputs(int... tensors) {
            inputs = tensors.clone();
        }

        public void outputs(int... tensors) {
            outputs = tensors.clone();
        }

        private void checkData(TensorSpec spec) {
            if (spec.buffer() != 0) {
                checkData(spec, buffers.get(spec.buffer()).length);
            } else if (spec.sparsity() != null) {
                // TFLite reads the sparsity of constants only.
                throw new IllegalArgumentException(where() + "tensor '" + spec.name() + "' is sparse but has no data");
            }
        }

        private void checkData(TensorSpec spec, int dataBytes) {
            if (spec.sparsity() != null) {
                long elements = spec.sparsity().storedElements(spec.name(), spec.shape());
                if (elements * spec.type().elementBytes() != dataBytes) {
                    throw new IllegalArgumentException(where() + "tensor '" + spec.name() + "': data has "
                            + dataBytes + " bytes, its sparsity keeps " + elements + " " + spec.type()
                            + " elements");
                }
                return;
            }
            long expected;
            try {
                expected = spec.type().bytesFor(spec.shape());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(where() + "tensor '" + spec.name() + "': shape "
                        + Arrays.toString(spec.shape()) + " is too large");
            }
            if (expected >= 0 && expected != dataBytes) {
                throw new IllegalArgumentException(where() + "tensor '" + spec.name() + "': data has " + dataBytes
                        + " bytes, a " + spec.type() + " tensor of shape " + Arrays.toString(spec.shape())
                        + " needs " + expected);
            }
        }

        private String where() {
            return "subgraph " + index + ": ";
        }

        private SubGraphT toSchema() {
            int count = tensors.size();
            checkTensors(inputs, count, where() + "inputs");
            checkTensors(outputs, count, where() + "outputs");
            for (int i = 0; i < operators.size(); i++) {
                OperatorT o = operators.get(i);
                String at = where() + "operator " + i + " (" + operatorNames.get(i) + ") ";
                checkTensors(o.getInputs(), count, at + "inputs");
                checkTensors(o.getOutputs(), count, at + "outputs");
                checkTensors(o.getIntermediates(), count, at + "intermediates");
            }
            SubGraphT s = new SubGraphT();
            s.setName(name);
            s.setTensors(tensors.toArray(new TensorT[0]));
            s.setOperators(operators.toArray(new OperatorT[0]));
            s.setInputs(inputs);
            s.setOutputs(outputs);
            return s;
        }

        private SignatureDefT signature(String key) {
            return signatureDef(key, index, tensorMaps(inputs), tensorMaps(outputs));
        }

        private TensorMapT[] tensorMaps(int[] indices) {
            TensorMapT[] maps = new TensorMapT[indices.length];
            for (int i = 0; i < indices.length; i++) {
                maps[i] = new TensorMapT();
                maps[i].setName(tensors.get(indices[i]).getName());
                maps[i].setTensorIndex(indices[i]);
            }
            return maps;
        }
    }

    private static SparsityParametersT sparsityParameters(Sparsity sparsity) {
        SparsityParametersT parameters = new SparsityParametersT();
        parameters.setTraversalOrder(sparsity.traversalOrder().clone());
        parameters.setBlockMap(sparsity.blockMap().clone());
        DimensionMetadataT[] levels = new DimensionMetadataT[sparsity.levels().length];
        for (int i = 0; i < levels.length; i++) {
            Sparsity.Level level = sparsity.levels()[i];
            levels[i] = new DimensionMetadataT();
            if (level.sparse()) {
                levels[i].setFormat(DimensionType.SPARSE_CSR);
                levels[i].setArraySegments(int32Vector(level.segments()));
                levels[i].setArrayIndices(int32Vector(level.indices()));
            } else {
                levels[i].setFormat(DimensionType.DENSE);
                levels[i].setDenseSize(level.denseSize());
            }
        }
        parameters.setDimMetadata(levels);
        return parameters;
    }

    private static SparseIndexVectorUnion int32Vector(int[] values) {
        Int32VectorT vector = new Int32VectorT();
        vector.setValues(values.clone());
        SparseIndexVectorUnion union = new SparseIndexVectorUnion();
        union.setType(SparseIndexVector.Int32Vector);
        union.setValue(vector);
        return union;
    }

    private static void checkTensors(int[] indices, int count, String what) {
        for (int i = 0; i < indices.length; i++) {
            if (indices[i] < -1 || indices[i] >= count) {
                throw new IllegalArgumentException(what + "[" + i + "] is " + indices[i]
                        + ", which refers to no tensor (the subgraph has " + count + ")");
            }
        }
    }

    /** The model's bytes, ready to be written to a {@code .tflite} file. */
    public byte[] build() {
        if (subgraphs.isEmpty()) {
            throw new IllegalStateException("a model needs at least one subgraph");
        }
        FlatBufferBuilder fbb = new FlatBufferBuilder(1024);
        int[] bufferOffsets = new int[buffers.size()];
        for (int i = 0; i < bufferOffsets.length; i++) {
            bufferOffsets[i] = packBuffer(fbb, buffers.get(i));
        }
        int[] codeOffsets = new int[opcodes.size()];
        opcodes.forEach((key, i) -> codeOffsets[i] = OperatorCode.pack(fbb, operatorCode(key)));
        int[] subgraphOffsets = new int[subgraphs.size()];
        for (int i = 0; i < subgraphOffsets.length; i++) {
            subgraphOffsets[i] = SubGraph.pack(fbb, subgraphs.get(i).toSchema());
        }
        List<SignatureDefT> signatureDefs = signatures.values().stream().map(Supplier::get).toList();
        for (SignatureDefT signature : signatureDefs) {
            if (signature.getSubgraphIndex() >= subgraphs.size()) {
                throw new IllegalArgumentException("signature '" + signature.getSignatureKey() + "' runs subgraph "
                        + signature.getSubgraphIndex() + ", the model has " + subgraphs.size());
            }
        }
        int[] signatureOffsets = signatureDefs.stream().mapToInt(signature -> SignatureDef.pack(fbb, signature)).toArray();
        int[] metadataOffsets = metadata.entrySet().stream()
                .mapToInt(e -> Metadata.createMetadata(fbb, fbb.createString(e.getKey()), e.getValue())).toArray();
        int model = Model.createModel(fbb, SCHEMA_VERSION,
                Model.createOperatorCodesVector(fbb, codeOffsets),
                Model.createSubgraphsVector(fbb, subgraphOffsets),
                fbb.createString(description),
                Model.createBuffersVector(fbb, bufferOffsets), 0,
                metadataOffsets.length == 0 ? 0 : Model.createMetadataVector(fbb, metadataOffsets),
                signatures.isEmpty() ? 0 : Model.createSignatureDefsVector(fbb, signatureOffsets));
        Model.finishModelBuffer(fbb, model);
        return fbb.sizedByteArray();
    }

    /** TFLite's schema_utils reads max(builtin_code, deprecated_builtin_code); old readers only the latter. */
    private static OperatorCodeT operatorCode(OpKey key) {
        OperatorCodeT code = new OperatorCodeT();
        code.setBuiltinCode(key.builtinCode());
        code.setDeprecatedBuiltinCode((byte) Math.min(key.builtinCode(), BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES));
        code.setCustomCode(key.customName());
        code.setVersion(key.version());
        return code;
    }

    /** Buffer.pack would align the data to 1 byte only; the sentinel and empty buffers carry no data vector. */
    static int packBuffer(FlatBufferBuilder fbb, byte[] data) {
        if (data.length == 0) {
            Buffer.startBuffer(fbb);
            return Buffer.endBuffer(fbb);
        }
        fbb.startVector(1, data.length, DATA_ALIGNMENT);
        for (int i = data.length - 1; i >= 0; i--) {
            fbb.putByte(data[i]);
        }
        return Buffer.createBuffer(fbb, fbb.endVector());
    }
}
