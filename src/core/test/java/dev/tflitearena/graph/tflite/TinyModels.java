package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;
import org.tensorflow.lite.schema.ActivationFunctionType;
import org.tensorflow.lite.schema.AddOptionsT;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.BuiltinOptionsUnion;
import org.tensorflow.lite.schema.WhileOptionsT;

/** Small models the tests build, read back and run natively. */
final class TinyModels {
    static final int WHILE_LIMIT = 3;

    private TinyModels() {
    }

    static BuiltinOptionsUnion addOptions() {
        AddOptionsT add = new AddOptionsT();
        add.setFusedActivationFunction(ActivationFunctionType.NONE);
        return TfliteModelBuilder.options(BuiltinOptions.AddOptions, add);
    }

    /** sum = a + b, both FLOAT32 [1, 4]. */
    static byte[] add() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int a = main.tensor("a", TensorType.FLOAT32, 1, 4);
        int b = main.tensor("b", TensorType.FLOAT32, 1, 4);
        int sum = main.tensor("sum", TensorType.FLOAT32, 1, 4);
        main.operator(BuiltinOperator.ADD, 1, new int[]{a, b}, new int[]{sum}, addOptions());
        main.inputs(a, b);
        main.outputs(sum);
        return model.build();
    }

    /**
     * while (i < 3) { i = i + 1; x = x + x } over an INT32 [1] counter and a FLOAT32 [1, 4] value: subgraph 1
     * is the condition (LESS against a constant), subgraph 2 the body (two ADDs, one with a constant).
     */
    static byte[] whileLoop() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        TfliteModelBuilder.SubgraphBuilder cond = model.subgraph("cond");
        TfliteModelBuilder.SubgraphBuilder body = model.subgraph("body");

        int i0 = main.tensor("i0", TensorType.INT32, 1);
        int x0 = main.tensor("x0", TensorType.FLOAT32, 1, 4);
        int i3 = main.tensor("i_final", TensorType.INT32, 1);
        int x3 = main.tensor("x_final", TensorType.FLOAT32, 1, 4);
        WhileOptionsT loop = new WhileOptionsT();
        loop.setCondSubgraphIndex(cond.index());
        loop.setBodySubgraphIndex(body.index());
        main.operator(BuiltinOperator.WHILE, 1, new int[]{i0, x0}, new int[]{i3, x3},
                TfliteModelBuilder.options(BuiltinOptions.WhileOptions, loop));
        main.inputs(i0, x0);
        main.outputs(i3, x3);

        int ci = cond.tensor("i", TensorType.INT32, 1);
        int cx = cond.tensor("x", TensorType.FLOAT32, 1, 4);
        int limit = cond.constant("limit", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(WHILE_LIMIT));
        int less = cond.tensor("less", TensorType.BOOL, 1);
        cond.operator(BuiltinOperator.LESS, 1, new int[]{ci, limit}, new int[]{less}, null);
        cond.inputs(ci, cx);
        cond.outputs(less);

        int bi = body.tensor("i", TensorType.INT32, 1);
        int bx = body.tensor("x", TensorType.FLOAT32, 1, 4);
        int one = body.constant("one", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(1));
        int next = body.tensor("i_next", TensorType.INT32, 1);
        int doubled = body.tensor("x_doubled", TensorType.FLOAT32, 1, 4);
        body.operator(BuiltinOperator.ADD, 1, new int[]{bi, one}, new int[]{next}, addOptions());
        body.operator(BuiltinOperator.ADD, 1, new int[]{bx, bx}, new int[]{doubled}, addOptions());
        body.inputs(bi, bx);
        body.outputs(next, doubled);
        return model.build();
    }
}
