package dev.tflitearena.models;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.Quantization;
import dev.tflitearena.graph.tflite.TensorSpec;
import dev.tflitearena.graph.tflite.TfliteModelBuilder;
import org.tensorflow.lite.schema.BuiltinOperator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The classic worked example of arena reuse: a 224x224x3 input and a chain of four ops whose outputs are
 * 112x112x16, 56x56x32, 28x28x64 and 1000 values. The ops are GATHER_NDs with constant indices: each picks
 * every other row and column and cycles through the channels. GATHER_ND's kernel adds no temporaries and
 * shares no memory in place, so the native planner's arena holds exactly the five activations.
 */
public final class DemoModel {
    /** What the demo is, for a reader who has not seen it: the demo's page opens with it. */
    public static final String DESCRIPTION = "The example: the classic worked example of arena reuse, a chain of "
            + "five activations, a 224x224x3 input through outputs of 112x112x16, 56x56x32, 28x28x64 and 1000 "
            + "values, each written by a GATHER_ND that picks every other row and column (an op that adds no "
            + "temporaries and shares no memory in place, so the arena holds exactly the activations), built in "
            + "code in float32 and in int8 (a quarter of the bytes). Each activation is needed only by the next op, "
            + "so a planner can reuse its bytes two steps later: the ledger shows what that saves.";

    /** The activation shapes, input first. */
    public static final int[][] SHAPES = {{1, 224, 224, 3}, {1, 112, 112, 16}, {1, 56, 56, 32}, {1, 28, 28, 64},
            {1, 1000}};
    private static final String[] NAMES = {"input", "gather_112x112x16", "gather_56x56x32", "gather_28x28x64",
            "gather_1000"};

    private DemoModel() {
    }

    /** The float32 demo. */
    public static byte[] float32() {
        return build(TensorType.FLOAT32, null);
    }

    /** The same chain on int8 activations, quantized with one scale throughout: a quarter of the bytes. */
    public static byte[] int8() {
        return build(TensorType.INT8, Quantization.of(1f / 128, 0));
    }

    private static byte[] build(TensorType type, Quantization quantization) {
        TfliteModelBuilder model = new TfliteModelBuilder();
        model.description("tflite-arena demo: GATHER_ND chain, " + type.jsonName());
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int[] activations = new int[SHAPES.length];
        for (int i = 0; i < SHAPES.length; i++) {
            activations[i] = main.tensor(TensorSpec.of(NAMES[i], type, SHAPES[i]).withQuantization(quantization));
        }
        for (int i = 1; i < SHAPES.length; i++) {
            int indices = main.constant(NAMES[i] + "/indices", TensorType.INT32, indicesShape(SHAPES[i]),
                    indices(SHAPES[i - 1], SHAPES[i]));
            main.operator(BuiltinOperator.GATHER_ND, type == TensorType.INT8 ? 2 : 1,
                    new int[]{activations[i - 1], indices}, new int[]{activations[i]}, null);
        }
        main.inputs(activations[0]);
        main.outputs(activations[SHAPES.length - 1]);
        return model.build();
    }

    /** One full coordinate into the previous activation per output value. */
    private static int[] indicesShape(int[] output) {
        int[] shape = new int[output.length + 1];
        System.arraycopy(output, 0, shape, 0, output.length);
        shape[output.length] = 4;
        return shape;
    }

    /**
     * For a 4-D output, value (0, y, x, c) comes from (0, 2y, 2x, c mod channels); for the flat output,
     * value k from a spread of rows, columns and channels.
     */
    private static byte[] indices(int[] from, int[] to) {
        int count = 1;
        for (int d : to) {
            count *= d;
        }
        ByteBuffer data = ByteBuffer.allocate(count * 4 * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < count; k++) {
            if (to.length == 4) {
                int c = k % to[3];
                int x = (k / to[3]) % to[2];
                int y = k / (to[3] * to[2]);
                data.putInt(0).putInt(2 * y).putInt(2 * x).putInt(c % from[3]);
            } else {
                data.putInt(0).putInt(k % from[1]).putInt((k / from[1]) % from[2]).putInt(k % from[3]);
            }
        }
        return data.array();
    }
}
