package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.OperatorCode;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TfliteModelBuilderTest {

    /** Two subgraphs with every kind of tensor and operator the builder makes. */
    private static byte[] rich() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        model.description("round trip");
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int in = main.tensor(TensorSpec.of("in", TensorType.FLOAT32, 1, 8, 3).withShapeSignature(-1, 8, 3));
        int weights = main.constant(TensorSpec.of("weights, \"int8\"", TensorType.INT8, 4, 3)
                        .withQuantization(Quantization.perAxis(0, new float[]{0.5f, 0.25f, 0.125f, 1f},
                                new long[]{0, 0, 0, 0})),
                new byte[12]);
        int q = main.tensor(TensorSpec.of("q", TensorType.INT8, 1, 8, 3).withQuantization(Quantization.of(0.1f, -3)));
        int state = main.tensor(TensorSpec.of("state", TensorType.FLOAT32, 1, 4).asVariable());
        int out = main.tensor("out", TensorType.FLOAT32, 1, 8, 4);
        int scratch = main.tensor("scratch", TensorType.INT16, 16);
        int gelu = main.tensor("gelu", TensorType.FLOAT32, 1, 8, 4);
        int last = main.tensor("last", TensorType.FLOAT32, 1, 8, 4);
        main.operator(BuiltinOperator.QUANTIZE, 1, new int[]{in}, new int[]{q}, null);
        main.operator(BuiltinOperator.FULLY_CONNECTED, 5, new int[]{q, weights, -1}, new int[]{out},
                new int[]{scratch}, null);
        main.operator(BuiltinOperator.GELU, 1, new int[]{out}, new int[]{gelu}, null);
        main.customOperator("MyOp", 2, new int[]{gelu, state}, new int[]{last}, new byte[]{1, 2, (byte) 0xFF});
        main.inputs(in);
        main.outputs(last);

        TfliteModelBuilder.SubgraphBuilder second = model.subgraph("second");
        int a = second.tensor("a", TensorType.FLOAT32, 2);
        int b = second.constant("b", TensorType.FLOAT32, new int[]{2}, TfliteModelBuilder.littleEndian(1f, 2f));
        int c = second.tensor("c", TensorType.FLOAT32, 2);
        int d = second.tensor("d", TensorType.FLOAT32, 2);
        second.operator(BuiltinOperator.ADD, 1, new int[]{a, b}, new int[]{c}, TinyModels.addOptions());
        second.operator(BuiltinOperator.ADD, 1, new int[]{c, b}, new int[]{d}, TinyModels.addOptions());
        second.operator(BuiltinOperator.ADD, 2, new int[]{d, b}, new int[]{a}, TinyModels.addOptions());
        second.inputs(a);
        second.outputs(d);
        return model.build();
    }

    @Test
    void aBuiltModelReadsBackWithTheSameTensorsAndOperators() {
        TfliteModel read = TfliteFile.read(rich(), "rich.tflite");
        assertEquals(3, read.version());
        assertEquals("round trip", read.description());
        assertEquals(2, read.subgraphs().size());

        TfliteSubgraph main = read.subgraph(0);
        assertEquals("main", main.name());
        assertEquals(8, main.tensors().size());
        TfliteTensor in = main.tensor(0);
        assertEquals("in", in.name());
        assertEquals(TensorType.FLOAT32, in.type());
        assertArrayEquals(new int[]{1, 8, 3}, in.shape());
        assertArrayEquals(new int[]{-1, 8, 3}, in.shapeSignature());
        assertTrue(in.dynamic());
        assertEquals(96, in.bytes());
        assertFalse(in.constant());
        assertNull(in.quantization());

        TfliteTensor weights = main.tensor(1);
        assertEquals("weights, \"int8\"", weights.name());
        assertTrue(weights.constant());
        assertEquals(12, weights.bytes());
        assertEquals(12, weights.dataBytes());
        assertEquals(1, weights.buffer());
        assertEquals(Quantization.perAxis(0, new float[]{0.5f, 0.25f, 0.125f, 1f}, new long[]{0, 0, 0, 0}),
                weights.quantization());
        assertEquals("per-axis 4 scales along axis 0", weights.quantization().summary());
        assertEquals(Quantization.of(0.1f, -3), main.tensor(2).quantization());
        assertNull(main.tensor(2).shapeSignature());
        assertTrue(main.tensor(3).variable());
        assertFalse(main.tensor(3).constant());
        assertEquals(0, main.tensor(3).buffer());
        assertEquals(TensorType.INT16, main.tensor(5).type());
        assertEquals(32, main.tensor(5).bytes());

        List<TfliteOperator> ops = main.operators();
        assertEquals(List.of("QUANTIZE", "FULLY_CONNECTED", "GELU", "MyOp"), ops.stream().map(TfliteOperator::op).toList());
        assertEquals(5, ops.get(1).version());
        assertArrayEquals(new int[]{2, 1, -1}, ops.get(1).inputs());
        assertArrayEquals(new int[]{4}, ops.get(1).outputs());
        assertArrayEquals(new int[]{5}, ops.get(1).intermediates());
        assertEquals(BuiltinOperator.GELU, ops.get(2).builtinCode());
        assertEquals(BuiltinOperator.CUSTOM, ops.get(3).builtinCode());
        assertEquals(2, ops.get(3).version());
        assertArrayEquals(new int[]{0}, main.inputs());
        assertArrayEquals(new int[]{7}, main.outputs());

        TfliteSubgraph second = read.subgraph(1);
        assertEquals("second", second.name());
        assertEquals(List.of(1, 1, 2), second.operators().stream().map(TfliteOperator::version).toList());
        assertEquals(2, second.tensor(1).buffer());
        assertEquals(3, read.bufferCount());
    }

    @Test
    void theFileFollowsTheSchemaRulesTfliteReliesOn() {
        byte[] bytes = rich();
        assertEquals("TFL3", new String(bytes, 4, 4));
        ByteBuffer bb = ByteBuffer.wrap(bytes);
        assertTrue(Model.ModelBufferHasIdentifier(bb));
        Model model = Model.getRootAsModel(bb);
        assertEquals(3, model.version());
        assertEquals(0, model.buffers(0).dataLength(), "buffer 0 is the empty sentinel");
        // Codes: QUANTIZE, FULLY_CONNECTED v5, GELU, MyOp, ADD v1 (shared by two operators), ADD v2.
        assertEquals(6, model.operatorCodesLength());
        OperatorCode gelu = model.operatorCodes(2);
        assertEquals(BuiltinOperator.GELU, gelu.builtinCode());
        assertEquals(BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES, gelu.deprecatedBuiltinCode());
        OperatorCode fc = model.operatorCodes(1);
        assertEquals(BuiltinOperator.FULLY_CONNECTED, fc.builtinCode());
        assertEquals(BuiltinOperator.FULLY_CONNECTED, fc.deprecatedBuiltinCode());
        assertEquals("MyOp", model.operatorCodes(3).customCode());
        assertEquals(BuiltinOperator.CUSTOM, model.operatorCodes(3).deprecatedBuiltinCode());
        assertEquals(3, model.subgraphs(0).operators(3).customOptionsLength());
        assertEquals(0xFF, model.subgraphs(0).operators(3).customOptions(2));
        for (int b = 1; b < model.buffersLength(); b++) {
            assertEquals(0, model.buffers(b).dataAsByteBuffer().position() % 16, "buffer " + b + " data is aligned");
        }
    }

    @Test
    void brokenReferencesAndDataAreRefusedByName() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        assertThrows(IllegalStateException.class, model::build);
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int a = main.tensor("a", TensorType.FLOAT32, 2);
        IllegalArgumentException data = assertThrows(IllegalArgumentException.class,
                () -> main.constant("w", TensorType.FLOAT32, new int[]{2}, new byte[4]));
        assertEquals("subgraph 0: tensor 'w': data has 4 bytes, a FLOAT32 tensor of shape [2] needs 8", data.getMessage());
        assertThrows(IllegalArgumentException.class, () -> main.tensor(TensorSpec.of("b", TensorType.FLOAT32, 2).withBuffer(7)));
        assertThrows(IllegalArgumentException.class, () -> TensorSpec.of("c", TensorType.FLOAT32, -1, 2));
        assertThrows(IllegalArgumentException.class, () -> main.operator(BuiltinOperator.CUSTOM, 1, new int[0], new int[0], null));
        main.operator(BuiltinOperator.ADD, 1, new int[]{a, 5}, new int[]{a}, null);
        IllegalArgumentException ref = assertThrows(IllegalArgumentException.class, model::build);
        assertEquals("subgraph 0: operator 0 (ADD) inputs[1] is 5, which refers to no tensor (the subgraph has 1)",
                ref.getMessage());
    }

    @Test
    void signaturesAreWrittenWithTheirKeysSubgraphsAndNamedTensors() {
        Model model = Model.getRootAsModel(ByteBuffer.wrap(SampleModels.addAndMultiplySignatures()));
        assertEquals(2, model.signatureDefsLength());
        assertEquals("add", model.signatureDefs(0).signatureKey());
        assertEquals(0, model.signatureDefs(0).subgraphIndex());
        assertEquals("multiply", model.signatureDefs(1).signatureKey());
        assertEquals(1, model.signatureDefs(1).subgraphIndex());
        assertEquals("y", model.signatureDefs(0).inputs(1).name());
        assertEquals(1, model.signatureDefs(0).inputs(1).tensorIndex());
        assertEquals("product", model.signatureDefs(1).outputs(0).name());
        assertEquals(2, model.signatureDefs(1).outputs(0).tensorIndex());

        TfliteModelBuilder builder = new TfliteModelBuilder();
        builder.subgraph("main");
        builder.signature("serve", 1, Map.of(), Map.of());
        var e = assertThrows(IllegalArgumentException.class, builder::build);
        assertEquals("signature 'serve' runs subgraph 1, the model has 1", e.getMessage());
    }

    @Test
    void signaturesNameTheirSubgraphAndItsTensors() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder encode = model.subgraph("encode");
        TfliteModelBuilder.SubgraphBuilder decode = model.subgraph("decode");
        for (TfliteModelBuilder.SubgraphBuilder s : List.of(encode, decode)) {
            int x = s.tensor("x", TensorType.FLOAT32, 1, 4);
            int y = s.tensor("y", TensorType.FLOAT32, 1, 4);
            s.operator(BuiltinOperator.RELU, 1, new int[]{x}, new int[]{y}, null);
            s.inputs(x);
            s.outputs(y);
        }
        model.signature("encode", encode);
        model.signature("decode", decode);
        Model read = Model.getRootAsModel(ByteBuffer.wrap(model.build()));
        assertEquals(2, read.signatureDefsLength());
        assertEquals("decode", read.signatureDefs(1).signatureKey());
        assertEquals(1, read.signatureDefs(1).subgraphIndex());
        assertEquals("x", read.signatureDefs(1).inputs(0).name());
        assertEquals(0, read.signatureDefs(1).inputs(0).tensorIndex());
        assertEquals("y", read.signatureDefs(1).outputs(0).name());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> model.signature("encode", decode));
        assertEquals("signature 'encode' is defined twice", twice.getMessage());
    }
}
