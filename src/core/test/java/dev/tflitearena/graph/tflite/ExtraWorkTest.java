package dev.tflitearena.graph.tflite;

import dev.tflitearena.TestModels;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BufferT;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.ModelT;
import org.tensorflow.lite.schema.SignatureDefT;
import org.tensorflow.lite.schema.TensorMapT;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ADD operators appended to a model: the chain reads back as written, and the rest of the model as it was. */
class ExtraWorkTest {
    private static final int OPERATIONS = 7;

    /** The samples and real models whose subgraph 0 has a float32 input. */
    private static Map<String, byte[]> floatModels() throws IOException {
        Map<String, byte[]> models = new LinkedHashMap<>();
        SampleModels.all().forEach((name, model) -> models.put(name, model.get()));
        for (Path model : TestModels.all()) {
            models.put(model.getFileName().toString(), Files.readAllBytes(model));
        }
        models.values().removeIf(m -> {
            TfliteSubgraph s = TfliteFile.read(m).subgraph(0);
            return Arrays.stream(s.inputs()).noneMatch(i -> s.tensor(i).type() == TensorType.FLOAT32);
        });
        return models;
    }

    @Test
    void theChainIsAppendedToSubgraphZeroAndTheRestIsUnchanged() throws IOException {
        Map<String, byte[]> models = floatModels();
        assertTrue(models.size() > 20, models.keySet().toString());
        for (Map.Entry<String, byte[]> m : models.entrySet()) {
            String what = m.getKey();
            byte[] slowed = ExtraWork.append(m.getValue(), OPERATIONS);
            TfliteModel a = TfliteFile.read(m.getValue());
            TfliteModel b = TfliteFile.read(slowed);
            assertChain(a.subgraph(0), b.subgraph(0), what);
            assertEquals(a.version(), b.version(), what);
            assertEquals(a.description(), b.description(), what);
            assertEquals(a.bufferCount(), b.bufferCount(), what + ": the new tensors share the empty buffer 0");
            assertEquals(a.subgraphs().size(), b.subgraphs().size(), what);
            for (int s = 1; s < a.subgraphs().size(); s++) {
                ModelAssertions.assertSameSubgraph(a.subgraph(s), b.subgraph(s), what + ", subgraph " + s);
            }
            assertEquals(a.metadata().size(), b.metadata().size(), what);
            ModelAssertions.assertSameMetadata(a, b, what);
            ModelDiff diff = ModelDiff.of(a, b);
            assertEquals(OPERATIONS, diff.count(ModelDiff.Status.ADDED), what);
            assertEquals(0, diff.count(ModelDiff.Status.CHANGED) + diff.count(ModelDiff.Status.REMOVED), what);
            assertSameSchemaParts(m.getValue(), slowed, what);
        }
    }

    /** Subgraph 0 of B is A's with OPERATIONS ADDs after its operators, over A's first float32 input. */
    private static void assertChain(TfliteSubgraph a, TfliteSubgraph b, String what) {
        int x = Arrays.stream(a.inputs()).filter(i -> a.tensor(i).type() == TensorType.FLOAT32).findFirst()
                .orElseThrow();
        int oldTensors = a.tensors().size();
        assertEquals(oldTensors + OPERATIONS, b.tensors().size(), what);
        assertEquals(a.operators().size() + OPERATIONS, b.operators().size(), what);
        assertArrayEquals(a.inputs(), b.inputs(), what);
        int[] outputs = Arrays.copyOf(a.outputs(), a.outputs().length + 1);
        outputs[outputs.length - 1] = oldTensors + OPERATIONS - 1;
        assertArrayEquals(outputs, b.outputs(), what + ": the last of the chain is a new last output");
        ModelAssertions.assertSameSubgraph(new TfliteSubgraph(0, a.name(), a.tensors(), a.operators(), a.inputs(), a.outputs()),
                new TfliteSubgraph(0, b.name(), b.tensors().subList(0, oldTensors),
                        b.operators().subList(0, a.operators().size()), a.inputs(), a.outputs()), what);
        int previous = x;
        for (int k = 1; k <= OPERATIONS; k++) {
            TfliteTensor t = b.tensor(oldTensors + k - 1);
            assertEquals(ExtraWork.TENSOR_PREFIX + k, t.name(), what);
            assertEquals(TensorType.FLOAT32, t.type(), what);
            assertArrayEquals(a.tensor(x).shape(), t.shape(), what);
            assertArrayEquals(a.tensor(x).shapeSignature(), t.shapeSignature(), what);
            assertEquals("activation", t.kind(), what);
            TfliteOperator add = b.operators().get(a.operators().size() + k - 1);
            assertEquals("ADD", add.op(), what);
            assertEquals(1, add.version(), what);
            assertArrayEquals(new int[]{previous, x}, add.inputs(), what);
            assertArrayEquals(new int[]{t.index()}, add.outputs(), what);
            previous = t.index();
        }
    }

    /** What the reader does not read: buffer data and its alignment, signatures, operator codes, options. */
    private static void assertSameSchemaParts(byte[] before, byte[] after, String what) {
        Model a = Model.getRootAsModel(ByteBuffer.wrap(before).order(ByteOrder.LITTLE_ENDIAN));
        Model b = Model.getRootAsModel(ByteBuffer.wrap(after).order(ByteOrder.LITTLE_ENDIAN));
        assertTrue(Model.ModelBufferHasIdentifier(ByteBuffer.wrap(after)), what);
        for (int i = 0; i < a.buffersLength(); i++) {
            ByteBuffer x = a.buffers(i).dataAsByteBuffer();
            ByteBuffer y = b.buffers(i).dataAsByteBuffer();
            if (x == null || !x.hasRemaining()) {
                assertTrue(y == null || !y.hasRemaining(), what + ", buffer " + i);
                continue;
            }
            assertEquals(x, y, what + ", buffer " + i);
            assertEquals(0, y.position() % 16, what + ", buffer " + i + ": data 16-aligned");
        }
        assertEquals(a.signatureDefsLength(), b.signatureDefsLength(), what);
        for (int i = 0; i < a.signatureDefsLength(); i++) {
            SignatureDefT x = a.signatureDefs(i).unpack();
            SignatureDefT y = b.signatureDefs(i).unpack();
            assertEquals(x.getSignatureKey(), y.getSignatureKey(), what);
            assertEquals(x.getSubgraphIndex(), y.getSubgraphIndex(), what);
            assertEquals(names(x.getInputs()), names(y.getInputs()), what);
            assertEquals(names(x.getOutputs()), names(y.getOutputs()), what + ": the signature lists no new output");
        }
        boolean hadAdd = false;
        for (int i = 0; i < a.operatorCodesLength(); i++) {
            assertEquals(a.operatorCodes(i).builtinCode(), b.operatorCodes(i).builtinCode(), what);
            assertEquals(a.operatorCodes(i).customCode(), b.operatorCodes(i).customCode(), what);
            assertEquals(a.operatorCodes(i).version(), b.operatorCodes(i).version(), what);
            hadAdd |= Math.max(a.operatorCodes(i).builtinCode(), a.operatorCodes(i).deprecatedBuiltinCode())
                    == BuiltinOperator.ADD && a.operatorCodes(i).version() == 1;
        }
        assertEquals(a.operatorCodesLength() + (hadAdd ? 0 : 1), b.operatorCodesLength(),
                what + ": an ADD version 1 code is reused");
        for (int s = 0; s < a.subgraphsLength(); s++) {
            for (int o = 0; o < a.subgraphs(s).operatorsLength(); o++) {
                String at = what + ", subgraph " + s + ", operator " + o;
                assertEquals(a.subgraphs(s).operators(o).builtinOptionsType(),
                        b.subgraphs(s).operators(o).builtinOptionsType(), at);
                assertEquals(a.subgraphs(s).operators(o).customOptionsAsByteBuffer(),
                        b.subgraphs(s).operators(o).customOptionsAsByteBuffer(), at);
            }
        }
    }

    private static String names(TensorMapT[] maps) {
        return Arrays.stream(maps).map(m -> m.getName() + "=" + m.getTensorIndex()).toList().toString();
    }

    @Test
    void aModelWhoseBufferZeroHoldsDataGetsAnEmptyBufferForTheChain() {
        TfliteModelBuilder builder = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = builder.subgraph("main");
        int x = main.tensor("x", TensorType.FLOAT32, 1, 4);
        int sum = main.tensor("sum", TensorType.FLOAT32, 1, 4);
        main.operator(BuiltinOperator.ADD, 1, new int[]{x, x}, new int[]{sum}, TinyModels.addOptions());
        main.inputs(x);
        main.outputs(sum);
        // Buffer 0 holding data (no tensor reads it), the graph's tensors on an empty buffer 1.
        ModelT model = Model.getRootAsModel(ByteBuffer.wrap(builder.build())).unpack();
        BufferT data = new BufferT();
        data.setData(new int[]{1, 2, 3, 4});
        model.setBuffers(new BufferT[]{data, new BufferT()});
        Arrays.stream(model.getSubgraphs()[0].getTensors()).forEach(t -> t.setBuffer(1));
        byte[] slowed = ExtraWork.append(model.serializeToBinary(), 2);
        TfliteModel read = TfliteFile.read(slowed);
        assertEquals(3, read.bufferCount());
        for (int t = 2; t < 4; t++) {
            assertEquals(2, read.subgraph(0).tensor(t).buffer());
            assertEquals("activation", read.subgraph(0).tensor(t).kind());
            assertArrayEquals(read.subgraph(0).tensor(0).shapeSignature(), read.subgraph(0).tensor(t).shapeSignature());
        }
    }

    @Test
    void refusals() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> ExtraWork.append(SampleModels.all().get("demo_float32").get(), 0));
        assertEquals("the number of extra operations must be at least 1, got 0", none.getMessage());

        IllegalArgumentException int8 = assertThrows(IllegalArgumentException.class,
                () -> ExtraWork.append(SampleModels.all().get("int8_end_to_end").get(), 3));
        assertTrue(int8.getMessage().startsWith("subgraph 0 has no float32 input for the extra ADD operators to "
                + "read; its inputs are '"), int8.getMessage());
        assertTrue(int8.getMessage().endsWith("' (INT8)"), int8.getMessage());

        byte[] model = SampleModels.int8ConvNet();
        byte[] truncated = Arrays.copyOf(model, model.length / 2);
        assertThrows(InvalidModelException.class, () -> ExtraWork.append(truncated, 3));
    }
}
