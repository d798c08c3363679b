package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.BuiltinOperator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TFLM's offline plan in a model's metadata: written, read back per subgraph, and refused when malformed. */
class OfflineMemoryAllocationTest {

    /** Two subgraphs of 3 and 2 tensors, with {@code metadata} under the name of TFLM's offline plan. */
    private static TfliteModel model(byte[] metadata) {
        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int x = main.tensor("x", TensorType.FLOAT32, 4);
        int y = main.tensor("y", TensorType.FLOAT32, 4);
        int z = main.tensor("z", TensorType.FLOAT32, 4);
        main.operator(BuiltinOperator.ADD, 1, new int[]{x, y}, new int[]{z}, TinyModels.addOptions());
        main.inputs(x, y);
        main.outputs(z);
        TfliteModelBuilder.SubgraphBuilder second = model.subgraph("second");
        int a = second.tensor("a", TensorType.FLOAT32, 2);
        int b = second.tensor("b", TensorType.FLOAT32, 2);
        second.operator(BuiltinOperator.ADD, 1, new int[]{a, a}, new int[]{b}, TinyModels.addOptions());
        second.inputs(a);
        second.outputs(b);
        model.metadata("min_runtime_version", "1.5.0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        model.metadata(OfflineMemoryAllocation.NAME, metadata);
        return TfliteFile.read(model.build());
    }

    private static byte[] ints(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    @Test
    void theOffsetsReadBackPerSubgraphInTheModelsTensorOrder() {
        byte[] bytes = OfflineMemoryAllocation.bytes(1, List.of(new int[]{0, 16, -1}, new int[]{-1, 32}));
        assertArrayEquals(ints(1, 2, 5, 0, 16, -1, -1, 32), bytes, "version, subgraphs, count, offsets");
        TfliteModel model = model(bytes);
        assertEquals(List.of("min_runtime_version", OfflineMemoryAllocation.NAME),
                model.metadata().stream().map(TfliteModel.Metadata::name).toList());
        OfflineMemoryAllocation plan = OfflineMemoryAllocation.of(model).orElseThrow();
        assertEquals(1, plan.version());
        assertArrayEquals(new int[]{0, 16, -1}, plan.offsets().get(0));
        assertArrayEquals(new int[]{-1, 32}, plan.offsets().get(1));
        assertTrue(OfflineMemoryAllocation.of(TfliteFile.read(TinyModels.add())).isEmpty(), "no metadata, no plan");
    }

    @Test
    void aPlanTflmCouldNotReadIsRefusedSayingWhy() {
        assertEquals("metadata 'OfflineMemoryAllocation' (buffer 2): 4 offsets for the model's 5 tensors "
                + "(TFLM refuses that)", message(ints(1, 2, 4, 0, 0, 0, 0)));
        assertEquals("metadata 'OfflineMemoryAllocation' (buffer 2): declares 5 offsets but holds 3",
                message(ints(1, 2, 5, 0, 0, 0)));
        assertEquals("metadata 'OfflineMemoryAllocation' (buffer 2): 6 bytes, not int32 values of a "
                + "version, a subgraph count, an offset count and the offsets", message(new byte[6]));
        assertEquals("metadata 'OfflineMemoryAllocation' (buffer 2): tensor 1 of subgraph 1 has offset -5, "
                + "neither an offset nor -1 (online)", message(ints(1, 2, 5, 0, 0, 0, 0, -5)));
    }

    private static String message(byte[] metadata) {
        TfliteModel model = model(metadata);
        return assertThrows(InvalidModelException.class, () -> OfflineMemoryAllocation.of(model)).getMessage();
    }
}
