package dev.tflitearena.models;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.Quantization;
import dev.tflitearena.graph.tflite.Sparsity;
import dev.tflitearena.graph.tflite.TensorSpec;
import dev.tflitearena.graph.tflite.TfliteModelBuilder;
import dev.tflitearena.graph.tflite.TfliteModelBuilder.SubgraphBuilder;
import org.tensorflow.lite.schema.ActivationFunctionType;
import org.tensorflow.lite.schema.AddOptionsT;
import org.tensorflow.lite.schema.BatchMatMulOptionsT;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.BuiltinOptionsUnion;
import org.tensorflow.lite.schema.CallOnceOptionsT;
import org.tensorflow.lite.schema.ConcatenationOptionsT;
import org.tensorflow.lite.schema.Conv2DOptionsT;
import org.tensorflow.lite.schema.DepthwiseConv2DOptionsT;
import org.tensorflow.lite.schema.FullyConnectedOptionsT;
import org.tensorflow.lite.schema.IfOptionsT;
import org.tensorflow.lite.schema.MulOptionsT;
import org.tensorflow.lite.schema.Padding;
import org.tensorflow.lite.schema.Pool2DOptionsT;
import org.tensorflow.lite.schema.ReducerOptionsT;
import org.tensorflow.lite.schema.ReshapeOptionsT;
import org.tensorflow.lite.schema.SVDFOptionsT;
import org.tensorflow.lite.schema.SoftmaxOptionsT;
import org.tensorflow.lite.schema.UnidirectionalSequenceLSTMOptionsT;
import org.tensorflow.lite.schema.VarHandleOptionsT;
import org.tensorflow.lite.schema.WhileOptionsT;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Models built in code to show the planners what real models rarely do: int8 quantization, variable
 * tensors of a stateful op, control flow over several subgraphs, residual branches, a dynamic-shape op.
 * Weights are seeded random values: the models compute nothing useful, but every kernel runs for real.
 */
public final class SampleModels {
    private SampleModels() {
    }

    /** Every sample by name, the demo and its int8 version first. */
    public static Map<String, Supplier<byte[]>> all() {
        Map<String, Supplier<byte[]>> models = new LinkedHashMap<>();
        models.put("demo_float32", DemoModel::float32);
        models.put("demo_int8", DemoModel::int8);
        models.put("int8_convnet", SampleModels::int8ConvNet);
        models.put("svdf_state", SampleModels::svdfState);
        models.put("while_loop", SampleModels::whileLoop);
        models.put("residual", SampleModels::residual);
        models.put("dynamic_where", SampleModels::dynamicWhere);
        models.put("int8_end_to_end", SampleModels::int8EndToEnd);
        models.put("lstm_state", SampleModels::lstmState);
        models.put("resource_variables", SampleModels::resourceVariables);
        models.put("transformer_block", SampleModels::transformerBlock);
        models.put("two_signatures", SampleModels::twoSignatures);
        models.put("nms", SampleModels::nonMaxSuppression);
        models.put("if_while_nested", SampleModels::ifWhileNested);
        models.put("reshape_computed_shape", SampleModels::reshapeComputedShape);
        models.put("while_after_where", SampleModels::whileAfterWhere);
        models.put("sparse_convnet", SampleModels::sparseConvNet);
        models.put("hybrid_ops", SampleModels::hybridOps);
        return models;
    }

    /**
     * A 5x5 CONV_2D of stride 2 with VALID padding on a [1, size, size, 4] float input: its map is
     * (size - 3) / 2 on a side, so it shrinks to 0x0 under a size of 5, as a strided convolution of a real
     * model does when the input gets too small for it. TFLite allocates that, then dies of SIGFPE (an
     * integer division by zero) in Invoke: at size 8 the model runs, and resized to half of it, it crashes the
     * process. Not among {@link #all}: it is made to crash TFLite, not to show the planners anything.
     */
    public static byte[] collapsingConvolution(int size) {
        Random random = new Random(13);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 1, size, size, 4);
        int weights = main.constant("conv/weights", TensorType.FLOAT32, new int[]{8, 5, 5, 4},
                randomFloats(random, 8 * 25 * 4));
        int bias = main.constant("conv/bias", TensorType.FLOAT32, new int[]{8}, randomFloats(random, 8));
        int side = Math.max(0, (size - 3) / 2);
        int output = main.tensor("conv", TensorType.FLOAT32, 1, side, side, 8);
        main.operator(BuiltinOperator.CONV_2D, 1, new int[]{input, weights, bias}, new int[]{output},
                conv2d(Padding.VALID, 2, ActivationFunctionType.NONE));
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /**
     * QUANTIZE, an int8 CONV_2D with per-channel weights, an int8 DEPTHWISE_CONV_2D, a residual int8 ADD,
     * an int8 FULLY_CONNECTED, DEQUANTIZE: the int8 kernels add their own temporaries.
     */
    public static byte[] int8ConvNet() {
        Random random = new Random(8);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        Quantization activation = Quantization.of(0.05f, -3);
        int input = main.tensor("input", TensorType.FLOAT32, 1, 32, 32, 8);
        int q = main.tensor(TensorSpec.of("quantized", TensorType.INT8, 1, 32, 32, 8).withQuantization(activation));
        main.operator(BuiltinOperator.QUANTIZE, 1, new int[]{input}, new int[]{q}, null);

        int conv = int8Convolution(main, random, q, 0.05f, 8, 16, 32, 0.001f, 200, activation);

        float[] dwScales = new float[16];
        java.util.Arrays.fill(dwScales, 0.02f);
        int dwWeights = main.constant(TensorSpec.of("depthwise/weights", TensorType.INT8, 1, 3, 3, 16)
                .withQuantization(Quantization.perAxis(3, dwScales, new long[16])), randomBytes(random, 9 * 16));
        int dwBias = main.constant(TensorSpec.of("depthwise/bias", TensorType.INT32, 16)
                .withQuantization(Quantization.perAxis(0, scaled(dwScales, 0.05f), new long[16])),
                TfliteModelBuilder.littleEndian(randomInts(random, 16, 100)));
        int dw = main.tensor(TensorSpec.of("depthwise", TensorType.INT8, 1, 32, 32, 16).withQuantization(activation));
        DepthwiseConv2DOptionsT dwOptions = new DepthwiseConv2DOptionsT();
        dwOptions.setPadding(Padding.SAME);
        dwOptions.setStrideW(1);
        dwOptions.setStrideH(1);
        dwOptions.setDepthMultiplier(1);
        dwOptions.setDilationWFactor(1);
        dwOptions.setDilationHFactor(1);
        main.operator(BuiltinOperator.DEPTHWISE_CONV_2D, 3, new int[]{conv, dwWeights, dwBias}, new int[]{dw},
                TfliteModelBuilder.options(BuiltinOptions.DepthwiseConv2DOptions, dwOptions));

        int sum = main.tensor(TensorSpec.of("residual", TensorType.INT8, 1, 32, 32, 16).withQuantization(activation));
        main.operator(BuiltinOperator.ADD, 2, new int[]{conv, dw}, new int[]{sum}, add());

        int fcWeights = main.constant(TensorSpec.of("dense/weights", TensorType.INT8, 10, 32 * 32 * 16)
                .withQuantization(Quantization.of(0.002f, 0)), randomBytes(random, 10 * 32 * 32 * 16));
        int fcBias = main.constant(TensorSpec.of("dense/bias", TensorType.INT32, 10)
                .withQuantization(Quantization.of(0.05f * 0.002f, 0)), TfliteModelBuilder.littleEndian(new int[10]));
        int logits = main.tensor(TensorSpec.of("logits", TensorType.INT8, 1, 10).withQuantization(Quantization.of(0.5f, 0)));
        main.operator(BuiltinOperator.FULLY_CONNECTED, 4, new int[]{sum, fcWeights, fcBias}, new int[]{logits},
                fullyConnected());
        int output = main.tensor("output", TensorType.FLOAT32, 1, 10);
        main.operator(BuiltinOperator.DEQUANTIZE, 2, new int[]{logits}, new int[]{output}, null);
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /**
     * A 3x3 int8 CONV_2D "conv" with SAME padding and a RELU on a [1, size, size, in] input of scale
     * {@code inputScale}: per-channel weight scales 0.01 + {@code scaleStep} per channel, random int32 biases
     * below {@code biasBound}.
     */
    private static int int8Convolution(SubgraphBuilder main, Random random, int input, float inputScale, int in,
                                       int out, int size, float scaleStep, int biasBound, Quantization activation) {
        float[] scales = new float[out];
        for (int c = 0; c < out; c++) {
            scales[c] = 0.01f + scaleStep * c;
        }
        int weights = main.constant(TensorSpec.of("conv/weights", TensorType.INT8, out, 3, 3, in)
                .withQuantization(Quantization.perAxis(0, scales, new long[out])), randomBytes(random, out * 9 * in));
        int bias = main.constant(TensorSpec.of("conv/bias", TensorType.INT32, out)
                .withQuantization(Quantization.perAxis(0, scaled(scales, inputScale), new long[out])),
                TfliteModelBuilder.littleEndian(randomInts(random, out, biasBound)));
        int conv = main.tensor(TensorSpec.of("conv", TensorType.INT8, 1, size, size, out).withQuantization(activation));
        main.operator(BuiltinOperator.CONV_2D, 3, new int[]{input, weights, bias}, new int[]{conv},
                conv2d(1, ActivationFunctionType.RELU));
        return conv;
    }

    /**
     * Two SVDF layers whose activation states are variable tensors: TFLite keeps them in the persistent arena
     * across invokes, and the layers add scratch temporaries.
     */
    public static byte[] svdfState() {
        Random random = new Random(5);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 2, 24);
        int first = svdf(main, random, "svdf1", input, 24, 32);
        int second = svdf(main, random, "svdf2", first, 32, 16);
        main.inputs(input);
        main.outputs(second);
        return model.build();
    }

    private static int svdf(SubgraphBuilder main, Random random, String name, int input, int inputSize, int units) {
        int rank = 2;
        int memory = 10;
        int filters = units * rank;
        int weightsFeature = main.constant(name + "/weights_feature", TensorType.FLOAT32, new int[]{filters, inputSize},
                randomFloats(random, filters * inputSize));
        int weightsTime = main.constant(name + "/weights_time", TensorType.FLOAT32, new int[]{filters, memory},
                randomFloats(random, filters * memory));
        int bias = main.constant(name + "/bias", TensorType.FLOAT32, new int[]{units}, randomFloats(random, units));
        int state = main.tensor(TensorSpec.of(name + "/state", TensorType.FLOAT32, 2, memory * filters).asVariable());
        int output = main.tensor(name + "/output", TensorType.FLOAT32, 2, units);
        SVDFOptionsT options = new SVDFOptionsT();
        options.setRank(rank);
        options.setFusedActivationFunction(ActivationFunctionType.RELU);
        main.operator(BuiltinOperator.SVDF, 1, new int[]{input, weightsFeature, weightsTime, bias, state},
                new int[]{output}, TfliteModelBuilder.options(BuiltinOptions.SVDFOptions, options));
        return output;
    }

    /**
     * A WHILE loop whose body runs a 3x3 CONV_2D and an ADD on a [1, 16, 16, 8] feature map: three subgraphs,
     * each with its own arena, the body's planned when the loop is prepared.
     */
    public static byte[] whileLoop() {
        return whileLoop(false);
    }

    /**
     * {@link #whileLoop} behind a WHERE, whose output TFLite only sizes while it runs: the loop is prepared,
     * and its body and condition planned, during the first invoke, and freed again at its end.
     */
    public static byte[] whileAfterWhere() {
        return whileLoop(true);
    }

    private static byte[] whileLoop(boolean whereFirst) {
        Random random = new Random(3);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        SubgraphBuilder cond = model.subgraph("cond");
        SubgraphBuilder body = model.subgraph("body");

        int input = main.tensor("input", TensorType.FLOAT32, 1, 16, 16, 8);
        int[] where = whereFirst ? where(main) : null;
        int doubled = main.tensor("doubled", TensorType.FLOAT32, 1, 16, 16, 8);
        main.operator(BuiltinOperator.ADD, 1, new int[]{input, input}, new int[]{doubled}, add());
        int counter = main.constant("zero", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(0));
        int finalCounter = main.tensor("counter_out", TensorType.INT32, 1);
        int looped = main.tensor("looped", TensorType.FLOAT32, 1, 16, 16, 8);
        WhileOptionsT loop = new WhileOptionsT();
        loop.setCondSubgraphIndex(cond.index());
        loop.setBodySubgraphIndex(body.index());
        main.operator(BuiltinOperator.WHILE, 1, new int[]{counter, doubled}, new int[]{finalCounter, looped},
                TfliteModelBuilder.options(BuiltinOptions.WhileOptions, loop));
        int output = main.tensor("output", TensorType.FLOAT32, 1, 16, 16, 8);
        main.operator(BuiltinOperator.ADD, 1, new int[]{looped, input}, new int[]{output}, add());
        if (whereFirst) {
            main.inputs(input, where[0]);
            main.outputs(output, where[1]);
        } else {
            main.inputs(input);
            main.outputs(output);
        }
        loopSubgraphs(cond, body, random, 1, 16, 16, 8);
        return model.build();
    }

    /**
     * The cond and body of a loop over (i, x), x of {@code shape}: the cond checks i < 3, the body adds 1 to
     * i and sets x to a 3x3 CONV_2D of x (RELU6) plus x.
     */
    private static void loopSubgraphs(SubgraphBuilder cond, SubgraphBuilder body, Random random, int... shape) {
        int channels = shape[3];
        int ci = cond.tensor("i", TensorType.INT32, 1);
        int cx = cond.tensor("x", TensorType.FLOAT32, shape);
        int limit = cond.constant("limit", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(3));
        int less = cond.tensor("less", TensorType.BOOL, 1);
        cond.operator(BuiltinOperator.LESS, 1, new int[]{ci, limit}, new int[]{less}, null);
        cond.inputs(ci, cx);
        cond.outputs(less);

        int bi = body.tensor("i", TensorType.INT32, 1);
        int bx = body.tensor("x", TensorType.FLOAT32, shape);
        int one = body.constant("one", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(1));
        int next = body.tensor("i_next", TensorType.INT32, 1);
        body.operator(BuiltinOperator.ADD, 1, new int[]{bi, one}, new int[]{next}, add());
        int weights = body.constant("conv/weights", TensorType.FLOAT32, new int[]{channels, 3, 3, channels},
                randomFloats(random, channels * 9 * channels));
        int bias = body.constant("conv/bias", TensorType.FLOAT32, new int[]{channels}, randomFloats(random, channels));
        int conv = body.tensor("conv", TensorType.FLOAT32, shape);
        body.operator(BuiltinOperator.CONV_2D, 1, new int[]{bx, weights, bias}, new int[]{conv},
                conv2d(1, ActivationFunctionType.RELU6));
        int updated = body.tensor("x_next", TensorType.FLOAT32, shape);
        body.operator(BuiltinOperator.ADD, 1, new int[]{conv, bx}, new int[]{updated}, add());
        body.inputs(bi, bx);
        body.outputs(next, updated);
    }

    /**
     * Two residual blocks: each feeds its input both to two 3x3 convolutions and, by a skip connection, to
     * the ADD after them, so the input stays live across the branch.
     */
    public static byte[] residual() {
        Random random = new Random(2);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 1, 24, 24, 16);
        int x = input;
        for (int block = 0; block < 2; block++) {
            int a = convolution(main, random, "block" + block + "/conv_a", x, 16, 16, 24);
            int b = convolution(main, random, "block" + block + "/conv_b", a, 16, 16, 24);
            int sum = main.tensor("block" + block + "/add", TensorType.FLOAT32, 1, 24, 24, 16);
            main.operator(BuiltinOperator.ADD, 1, new int[]{b, x}, new int[]{sum}, add());
            x = sum;
        }
        int weights = main.constant("head/weights", TensorType.FLOAT32, new int[]{10, 24 * 24 * 16},
                randomFloats(random, 10 * 24 * 24 * 16));
        int logits = main.tensor("logits", TensorType.FLOAT32, 1, 10);
        main.operator(BuiltinOperator.FULLY_CONNECTED, 1, new int[]{x, weights, -1}, new int[]{logits},
                fullyConnected());
        main.inputs(input);
        main.outputs(logits);
        return model.build();
    }

    private static int convolution(SubgraphBuilder main, Random random, String name, int input, int in, int out,
                                   int size) {
        int weights = main.constant(name + "/weights", TensorType.FLOAT32, new int[]{out, 3, 3, in},
                randomFloats(random, out * 9 * in));
        int bias = main.constant(name + "/bias", TensorType.FLOAT32, new int[]{out}, randomFloats(random, out));
        int output = main.tensor(name, TensorType.FLOAT32, 1, size, size, out);
        main.operator(BuiltinOperator.CONV_2D, 1, new int[]{input, weights, bias}, new int[]{output},
                conv2d(1, ActivationFunctionType.RELU));
        return output;
    }

    /**
     * A WHERE on a boolean mask: how many coordinates it outputs is only known when it runs, so TFLite
     * plans the nodes up to it when tensors are allocated and the nodes after it (a CAST and two element-wise
     * ops on the coordinates) during the first invoke.
     */
    public static byte[] dynamicWhere() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 1, 32, 32);
        int mask = main.tensor("mask", TensorType.BOOL, 16, 16);
        int doubled = main.tensor("doubled", TensorType.FLOAT32, 1, 32, 32);
        main.operator(BuiltinOperator.ADD, 1, new int[]{input, input}, new int[]{doubled}, add());
        int squared = main.tensor("squared", TensorType.FLOAT32, 1, 32, 32);
        main.operator(BuiltinOperator.MUL, 1, new int[]{doubled, doubled}, new int[]{squared}, null);
        int coordinates = main.tensor(TensorSpec.of("coordinates", TensorType.INT64, 0, 2).withShapeSignature(-1, 2));
        main.operator(BuiltinOperator.WHERE, 1, new int[]{mask}, new int[]{coordinates}, null);
        int asFloat = main.tensor(TensorSpec.of("as_float", TensorType.FLOAT32, 0, 2).withShapeSignature(-1, 2));
        main.operator(BuiltinOperator.CAST, 1, new int[]{coordinates}, new int[]{asFloat}, null);
        int sum = main.tensor(TensorSpec.of("sum", TensorType.FLOAT32, 0, 2).withShapeSignature(-1, 2));
        main.operator(BuiltinOperator.ADD, 1, new int[]{asFloat, asFloat}, new int[]{sum}, add());
        int product = main.tensor(TensorSpec.of("product", TensorType.FLOAT32, 0, 2).withShapeSignature(-1, 2));
        main.operator(BuiltinOperator.MUL, 1, new int[]{sum, asFloat}, new int[]{product}, null);
        main.inputs(input, mask);
        main.outputs(product, squared);
        return model.build();
    }

    /**
     * A RESHAPE of a [2, 3] input of {@code type} to a [3, 2] output, quantized by {@code inputQuantization} and
     * {@code outputQuantization} (null for none; per channel, along a dimension of 3 for both): the output holds the input's values, whatever their type, as RESHAPE copies bytes. Not among
     * {@link #all}: it shows an element type, not the planners anything.
     */
    public static byte[] reshape(TensorType type, Quantization inputQuantization, Quantization outputQuantization) {
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor(TensorSpec.of("input", type, 2, 3).withQuantization(inputQuantization));
        int output = main.tensor(TensorSpec.of("output", type, 3, 2).withQuantization(outputQuantization));
        ReshapeOptionsT options = new ReshapeOptionsT();
        options.setNewShape(new int[]{3, 2});
        main.operator(BuiltinOperator.RESHAPE, 1, new int[]{input}, new int[]{output},
                TfliteModelBuilder.options(BuiltinOptions.ReshapeOptions, options));
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /**
     * Two signatures, each on a subgraph of its own, naming their tensors otherwise than the tensors are named:
     * {@code add} (subgraph 0) takes {@code x} and {@code y}, float32 [4], and gives their {@code sum};
     * {@code multiply} (subgraph 1) takes {@code a} and {@code b}, float32 [2, 2], and gives their
     * {@code product}. Not among {@link #all}: it shows signatures, not the planners anything.
     */
    public static byte[] addAndMultiplySignatures() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder add = model.subgraph("add");
        int x = add.tensor("add/x", TensorType.FLOAT32, 4);
        int y = add.tensor("add/y", TensorType.FLOAT32, 4);
        int sum = add.tensor("add/sum", TensorType.FLOAT32, 4);
        add.operator(BuiltinOperator.ADD, 1, new int[]{x, y}, new int[]{sum}, add());
        add.inputs(x, y);
        add.outputs(sum);
        SubgraphBuilder multiply = model.subgraph("multiply");
        int a = multiply.tensor("multiply/a", TensorType.FLOAT32, 2, 2);
        int b = multiply.tensor("multiply/b", TensorType.FLOAT32, 2, 2);
        int product = multiply.tensor("multiply/product", TensorType.FLOAT32, 2, 2);
        multiply.operator(BuiltinOperator.MUL, 1, new int[]{a, b}, new int[]{product}, null);
        multiply.inputs(a, b);
        multiply.outputs(product);
        model.signature("add", add.index(), orderedMap("x", x, "y", y), orderedMap("sum", sum));
        model.signature("multiply", multiply.index(), orderedMap("a", a, "b", b), orderedMap("product", product));
        return model.build();
    }

    private static Map<String, Integer> orderedMap(Object... namesAndTensors) {
        Map<String, Integer> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndTensors.length; i += 2) {
            map.put((String) namesAndTensors[i], (Integer) namesAndTensors[i + 1]);
        }
        return map;
    }

    /**
     * Three float inputs of 120, 108 and 100 bytes concatenated into one output of 328, all live at once, with
     * TFLM's offline plan in its metadata ({@code OfflineMemoryAllocation}): the first input at offset 512,
     * the rest online. Rounded up to 16 bytes, as TFLM's allocator does, the last two inputs tie; rounded up
     * to 64, all three do, and TFLM's greedy planner takes tied buffers last-added first.
     */
    public static byte[] tflmOfflinePlan() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int a = main.tensor("a", TensorType.FLOAT32, 1, 30);
        int b = main.tensor("b", TensorType.FLOAT32, 1, 27);
        int c = main.tensor("c", TensorType.FLOAT32, 1, 25);
        int joined = main.tensor("joined", TensorType.FLOAT32, 1, 82);
        ConcatenationOptionsT options = new ConcatenationOptionsT();
        options.setAxis(1);
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        main.operator(BuiltinOperator.CONCATENATION, 1, new int[]{a, b, c}, new int[]{joined},
                TfliteModelBuilder.options(BuiltinOptions.ConcatenationOptions, options));
        main.inputs(a, b, c);
        main.outputs(joined);
        model.metadata(OfflineMemoryAllocation.NAME,
                OfflineMemoryAllocation.bytes(1, java.util.List.of(new int[]{512, -1, -1, -1})));
        return model.build();
    }

    /** A WHERE on a [4, 4] boolean mask, a graph input: returns the mask and the coordinates, as floats. */
    private static int[] where(SubgraphBuilder main) {
        int mask = main.tensor("mask", TensorType.BOOL, 4, 4);
        int coordinates = main.tensor(TensorSpec.of("coordinates", TensorType.INT64, 0, 2).withShapeSignature(-1, 2));
        main.operator(BuiltinOperator.WHERE, 1, new int[]{mask}, new int[]{coordinates}, null);
        int asFloat = main.tensor(TensorSpec.of("coordinates_float", TensorType.FLOAT32, 0, 2).withShapeSignature(-1, 2));
        main.operator(BuiltinOperator.CAST, 1, new int[]{coordinates}, new int[]{asFloat}, null);
        return new int[]{mask, asFloat};
    }

    /**
     * Two RESHAPEs whose new shape an ADD computes, as a converter leaves shape arithmetic in, behind a WHERE.
     * TFLite 2.20's RESHAPE cannot size its output while it is prepared: it returns kTfLiteOutputShapeNotKnown,
     * and TFLite stops preparing there although no tensor is dynamic. The first reshapes a graph input, which
     * it may not share: its output is planned in the arena, then made dynamic when it runs, and keeps its
     * bytes in the arena while it lives. The second shares its input's memory in place and stays there.
     */
    public static byte[] reshapeComputedShape() {
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 1, 8, 8);
        int[] where = where(main);
        int square = computedShape(main, "square_shape", 8, 8);
        int reshaped = main.tensor("reshaped", TensorType.FLOAT32, 8, 8);
        main.operator(BuiltinOperator.RESHAPE, 1, new int[]{input, square}, new int[]{reshaped}, null);
        int squared = main.tensor("squared", TensorType.FLOAT32, 8, 8);
        main.operator(BuiltinOperator.MUL, 1, new int[]{reshaped, reshaped}, new int[]{squared}, null);
        int sum = main.tensor("sum", TensorType.FLOAT32, 8, 8);
        main.operator(BuiltinOperator.ADD, 1, new int[]{squared, reshaped}, new int[]{sum}, add());
        int flat = computedShape(main, "flat_shape", 64);
        int flattened = main.tensor("flattened", TensorType.FLOAT32, 64);
        main.operator(BuiltinOperator.RESHAPE, 1, new int[]{sum, flat}, new int[]{flattened}, null);
        int output = main.tensor("output", TensorType.FLOAT32, 64);
        main.operator(BuiltinOperator.MUL, 1, new int[]{flattened, flattened}, new int[]{output}, null);
        main.inputs(input, where[0]);
        main.outputs(output, where[1]);
        return model.build();
    }

    /** An int32 shape an ADD computes from two constants, so that it is no constant to TFLite. */
    private static int computedShape(SubgraphBuilder main, String name, int... shape) {
        int[] dims = {shape.length};
        int base = main.constant(name + "/base", TensorType.INT32, dims, TfliteModelBuilder.littleEndian(shape));
        int zero = main.constant(name + "/zero", TensorType.INT32, dims,
                TfliteModelBuilder.littleEndian(new int[shape.length]));
        int computed = main.tensor(name, TensorType.INT32, shape.length);
        main.operator(BuiltinOperator.ADD, 1, new int[]{base, zero}, new int[]{computed}, add());
        return computed;
    }

    /**
     * Two resource variables, initialised by CALL_ONCE's init subgraph (one from a constant, one from an ADD),
     * read, updated and written back by the main subgraph. TFLite prepares and plans the init subgraph inside
     * CALL_ONCE's first invoke and frees its rw arena there; until then its RESOURCE tensors are dynamic, as
     * TFLite makes every RESOURCE tensor until VAR_HANDLE is prepared. Every shape is static.
     */
    public static byte[] resourceVariables() {
        Random random = new Random(21);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        SubgraphBuilder init = model.subgraph("init");

        int input = main.tensor("input", TensorType.FLOAT32, 1, 32);
        CallOnceOptionsT callOnce = new CallOnceOptionsT();
        callOnce.setInitSubgraphIndex(init.index());
        main.operator(BuiltinOperator.CALL_ONCE, 1, new int[0], new int[0],
                TfliteModelBuilder.options(BuiltinOptions.CallOnceOptions, callOnce));
        int state = varHandle(main, "state");
        int scale = varHandle(main, "scale");
        int stateValue = main.tensor("state/read", TensorType.FLOAT32, 1, 32);
        main.operator(BuiltinOperator.READ_VARIABLE, 1, new int[]{state}, new int[]{stateValue}, null);
        int scaleValue = main.tensor("scale/read", TensorType.FLOAT32, 1, 32);
        main.operator(BuiltinOperator.READ_VARIABLE, 1, new int[]{scale}, new int[]{scaleValue}, null);
        int scaled = main.tensor("scaled", TensorType.FLOAT32, 1, 32);
        main.operator(BuiltinOperator.MUL, 1, new int[]{input, scaleValue}, new int[]{scaled}, null);
        int updated = main.tensor("updated", TensorType.FLOAT32, 1, 32);
        main.operator(BuiltinOperator.ADD, 1, new int[]{stateValue, scaled}, new int[]{updated}, add());
        main.operator(BuiltinOperator.ASSIGN_VARIABLE, 1, new int[]{state, updated}, new int[0], null);
        int output = main.tensor("output", TensorType.FLOAT32, 1, 32);
        main.operator(BuiltinOperator.MUL, 1, new int[]{updated, updated}, new int[]{output}, null);
        main.inputs(input);
        main.outputs(output);

        int initState = varHandle(init, "state");
        int zeros = init.constant("state/initial", TensorType.FLOAT32, new int[]{1, 32}, new byte[32 * Float.BYTES]);
        init.operator(BuiltinOperator.ASSIGN_VARIABLE, 1, new int[]{initState, zeros}, new int[0], null);
        int initScale = varHandle(init, "scale");
        int base = init.constant("scale/base", TensorType.FLOAT32, new int[]{1, 32}, randomFloats(random, 32));
        int initial = init.tensor("scale/initial", TensorType.FLOAT32, 1, 32);
        init.operator(BuiltinOperator.ADD, 1, new int[]{base, base}, new int[]{initial}, add());
        init.operator(BuiltinOperator.ASSIGN_VARIABLE, 1, new int[]{initScale, initial}, new int[0], null);
        return model.build();
    }

    private static int varHandle(SubgraphBuilder subgraph, String variable) {
        int handle = subgraph.tensor(variable + "/handle", TensorType.RESOURCE);
        VarHandleOptionsT options = new VarHandleOptionsT();
        options.setSharedName(variable);
        subgraph.operator(BuiltinOperator.VAR_HANDLE, 1, new int[0], new int[]{handle},
                TfliteModelBuilder.options(BuiltinOptions.VarHandleOptions, options));
        return handle;
    }

    /**
     * Two signatures on two subgraphs, "encode" on the primary and "decode" on the second: the interpreter's
     * AllocateTensors prepares only the primary one; the second is planned when its signature runner allocates.
     */
    public static byte[] twoSignatures() {
        return encoderDecoder(true);
    }

    /**
     * {@link #twoSignatures} without its signatures: nothing runs the second subgraph, and TFLite never plans
     * it. Not among {@link #all}: it shows {@code compare} a subgraph without a native plan.
     */
    public static byte[] unreachableSubgraph() {
        return encoderDecoder(false);
    }

    private static byte[] encoderDecoder(boolean signatures) {
        Random random = new Random(34);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder encode = model.subgraph("encode");
        SubgraphBuilder decode = model.subgraph("decode");
        int image = encode.tensor("image", TensorType.FLOAT32, 1, 16, 16, 4);
        int features = convolution(encode, random, "encode/conv", image, 4, 8, 16);
        int code = encode.tensor("code", TensorType.FLOAT32, 1, 16, 16, 8);
        encode.operator(BuiltinOperator.ADD, 1, new int[]{features, features}, new int[]{code}, add());
        encode.inputs(image);
        encode.outputs(code);

        int codeIn = decode.tensor("code", TensorType.FLOAT32, 1, 16, 16, 8);
        int first = convolution(decode, random, "decode/conv_a", codeIn, 8, 8, 16);
        int second = convolution(decode, random, "decode/conv_b", first, 8, 4, 16);
        int reconstructed = decode.tensor("reconstructed", TensorType.FLOAT32, 1, 16, 16, 4);
        decode.operator(BuiltinOperator.ADD, 1, new int[]{second, second}, new int[]{reconstructed}, add());
        decode.inputs(codeIn);
        decode.outputs(reconstructed);
        if (signatures) {
            model.signature("encode", encode);
            model.signature("decode", decode);
        }
        return model.build();
    }

    private static BuiltinOptionsUnion add() {
        AddOptionsT options = new AddOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        return TfliteModelBuilder.options(BuiltinOptions.AddOptions, options);
    }

    private static BuiltinOptionsUnion conv2d(int stride, byte activation) {
        return conv2d(Padding.SAME, stride, activation);
    }

    private static BuiltinOptionsUnion conv2d(byte padding, int stride, byte activation) {
        Conv2DOptionsT options = new Conv2DOptionsT();
        options.setPadding(padding);
        options.setStrideW(stride);
        options.setStrideH(stride);
        options.setDilationWFactor(1);
        options.setDilationHFactor(1);
        options.setFusedActivationFunction(activation);
        return TfliteModelBuilder.options(BuiltinOptions.Conv2DOptions, options);
    }

    private static BuiltinOptionsUnion fullyConnected() {
        FullyConnectedOptionsT options = new FullyConnectedOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        return TfliteModelBuilder.options(BuiltinOptions.FullyConnectedOptions, options);
    }

    private static float[] scaled(float[] scales, float factor) {
        float[] result = new float[scales.length];
        for (int i = 0; i < scales.length; i++) {
            result[i] = scales[i] * factor;
        }
        return result;
    }

    private static byte[] randomBytes(Random random, int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    private static int[] randomInts(Random random, int count, int bound) {
        int[] values = new int[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextInt(2 * bound) - bound;
        }
        return values;
    }

    /**
     * Float16 bits of random values in (-0.1, 0.1), as {@link #randomFloats} draws them: the float's
     * mantissa cut to 10 bits, and the few values too small for a normal half zero.
     */
    private static byte[] randomHalves(Random random, int count) {
        ByteBuffer data = ByteBuffer.allocate(count * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            int bits = Float.floatToIntBits((random.nextFloat() - 0.5f) * 0.2f);
            int exponent = ((bits >>> 23) & 0xFF) - 127 + 15;
            int sign = (bits >>> 16) & 0x8000;
            data.putShort((short) (exponent <= 0 ? 0 : sign | exponent << 10 | (bits & 0x7FFFFF) >>> 13));
        }
        return data.array();
    }

    private static byte[] randomFloats(Random random, int count) {
        ByteBuffer data = ByteBuffer.allocate(count * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            data.putFloat((random.nextFloat() - 0.5f) * 0.2f);
        }
        return data.array();
    }

    /**
     * int8 from input to output: an int8 CONV_2D with per-channel weights, MAX_POOL_2D, an int8
     * FULLY_CONNECTED and an int8 SOFTMAX, with no QUANTIZE or DEQUANTIZE at the edges.
     */
    public static byte[] int8EndToEnd() {
        Random random = new Random(21);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        Quantization in = Quantization.of(0.02f, -10);
        Quantization activation = Quantization.of(0.05f, -3);
        int input = main.tensor(TensorSpec.of("input", TensorType.INT8, 1, 16, 16, 3).withQuantization(in));
        int conv = int8Convolution(main, random, input, 0.02f, 3, 8, 16, 0.002f, 300, activation);
        int pooled = main.tensor(TensorSpec.of("pool", TensorType.INT8, 1, 8, 8, 8).withQuantization(activation));
        Pool2DOptionsT pool = new Pool2DOptionsT();
        pool.setPadding(Padding.VALID);
        pool.setStrideW(2);
        pool.setStrideH(2);
        pool.setFilterWidth(2);
        pool.setFilterHeight(2);
        main.operator(BuiltinOperator.MAX_POOL_2D, 2, new int[]{conv}, new int[]{pooled},
                TfliteModelBuilder.options(BuiltinOptions.Pool2DOptions, pool));
        int fcWeights = main.constant(TensorSpec.of("dense/weights", TensorType.INT8, 10, 8 * 8 * 8)
                .withQuantization(Quantization.of(0.004f, 0)), randomBytes(random, 10 * 8 * 8 * 8));
        int fcBias = main.constant(TensorSpec.of("dense/bias", TensorType.INT32, 10)
                .withQuantization(Quantization.of(0.05f * 0.004f, 0)), TfliteModelBuilder.littleEndian(new int[10]));
        int logits = main.tensor(TensorSpec.of("logits", TensorType.INT8, 1, 10).withQuantization(Quantization.of(0.25f, 0)));
        main.operator(BuiltinOperator.FULLY_CONNECTED, 4, new int[]{pooled, fcWeights, fcBias}, new int[]{logits},
                fullyConnected());
        // TFLite's int8 SOFTMAX requires this output quantization.
        int output = main.tensor(TensorSpec.of("probabilities", TensorType.INT8, 1, 10)
                .withQuantization(Quantization.of(1f / 256, -128)));
        main.operator(BuiltinOperator.SOFTMAX, 2, new int[]{logits}, new int[]{output}, softmax());
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /**
     * A float UNIDIRECTIONAL_SEQUENCE_LSTM over 5 steps of a batch of 2, whose output and cell states are
     * variable tensors: they carry over from one invoke to the next, and the kernel adds its scratch buffer.
     */
    public static byte[] lstmState() {
        Random random = new Random(34);
        int batch = 2;
        int steps = 5;
        int inputs = 8;
        int cells = 16;
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, batch, steps, inputs);
        String[] gates = {"input", "forget", "cell", "output"};
        int[] operands = new int[24];
        java.util.Arrays.fill(operands, -1);
        operands[0] = input;
        for (int g = 0; g < gates.length; g++) {
            operands[1 + g] = main.constant("lstm/" + gates[g] + "/input_weights", TensorType.FLOAT32,
                    new int[]{cells, inputs}, randomFloats(random, cells * inputs));
            operands[5 + g] = main.constant("lstm/" + gates[g] + "/recurrent_weights", TensorType.FLOAT32,
                    new int[]{cells, cells}, randomFloats(random, cells * cells));
            operands[12 + g] = main.constant("lstm/" + gates[g] + "/bias", TensorType.FLOAT32, new int[]{cells},
                    randomFloats(random, cells));
        }
        operands[18] = main.tensor(TensorSpec.of("lstm/output_state", TensorType.FLOAT32, batch, cells).asVariable());
        operands[19] = main.tensor(TensorSpec.of("lstm/cell_state", TensorType.FLOAT32, batch, cells).asVariable());
        int output = main.tensor("output", TensorType.FLOAT32, batch, steps, cells);
        UnidirectionalSequenceLSTMOptionsT options = new UnidirectionalSequenceLSTMOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.TANH);
        options.setCellClip(10f);
        options.setTimeMajor(false);
        main.operator(BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM, 1, operands, new int[]{output},
                TfliteModelBuilder.options(BuiltinOptions.UnidirectionalSequenceLSTMOptions, options));
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /**
     * One transformer block on a [1, 8, 16] sequence: layer norm built of MEAN, SUB, MUL, ADD and RSQRT;
     * query, key and value FULLY_CONNECTED layers; BATCH_MATMUL of the query by the transposed key, scaled,
     * SOFTMAX, BATCH_MATMUL by the value; an output projection and a residual ADD.
     */
    public static byte[] transformerBlock() {
        Random random = new Random(89);
        int length = 8;
        int width = 16;
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 1, length, width);
        int axis = main.constant("norm/axis", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(2));
        int mean = main.tensor("norm/mean", TensorType.FLOAT32, 1, length, 1);
        main.operator(BuiltinOperator.MEAN, 1, new int[]{input, axis}, new int[]{mean}, keepDims());
        int centered = main.tensor("norm/centered", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.SUB, 1, new int[]{input, mean}, new int[]{centered}, null);
        int squared = main.tensor("norm/squared", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.MUL, 1, new int[]{centered, centered}, new int[]{squared}, mul());
        int variance = main.tensor("norm/variance", TensorType.FLOAT32, 1, length, 1);
        main.operator(BuiltinOperator.MEAN, 1, new int[]{squared, axis}, new int[]{variance}, keepDims());
        int epsilon = main.constant("norm/epsilon", TensorType.FLOAT32, new int[]{1}, TfliteModelBuilder.littleEndian(1e-5f));
        int shifted = main.tensor("norm/shifted", TensorType.FLOAT32, 1, length, 1);
        main.operator(BuiltinOperator.ADD, 1, new int[]{variance, epsilon}, new int[]{shifted}, add());
        int inverse = main.tensor("norm/inverse", TensorType.FLOAT32, 1, length, 1);
        main.operator(BuiltinOperator.RSQRT, 1, new int[]{shifted}, new int[]{inverse}, null);
        int normed = main.tensor("norm/normed", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.MUL, 1, new int[]{centered, inverse}, new int[]{normed}, mul());
        int gamma = main.constant("norm/gamma", TensorType.FLOAT32, new int[]{width}, randomFloats(random, width));
        int scaledNorm = main.tensor("norm/scaled", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.MUL, 1, new int[]{normed, gamma}, new int[]{scaledNorm}, mul());
        int beta = main.constant("norm/beta", TensorType.FLOAT32, new int[]{width}, randomFloats(random, width));
        int norm = main.tensor("norm/output", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.ADD, 1, new int[]{scaledNorm, beta}, new int[]{norm}, add());

        int query = dense(main, random, "query", norm, length, width);
        int key = dense(main, random, "key", norm, length, width);
        int value = dense(main, random, "value", norm, length, width);
        int scores = main.tensor("attention/scores", TensorType.FLOAT32, 1, length, length);
        main.operator(BuiltinOperator.BATCH_MATMUL, 1, new int[]{query, key}, new int[]{scores}, batchMatMul(true));
        int scale = main.constant("attention/scale", TensorType.FLOAT32, new int[]{1},
                TfliteModelBuilder.littleEndian(0.25f));
        int scaledScores = main.tensor("attention/scaled", TensorType.FLOAT32, 1, length, length);
        main.operator(BuiltinOperator.MUL, 1, new int[]{scores, scale}, new int[]{scaledScores}, mul());
        int weights = main.tensor("attention/weights", TensorType.FLOAT32, 1, length, length);
        main.operator(BuiltinOperator.SOFTMAX, 1, new int[]{scaledScores}, new int[]{weights}, softmax());
        int context = main.tensor("attention/context", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.BATCH_MATMUL, 1, new int[]{weights, value}, new int[]{context},
                batchMatMul(false));
        int projected = dense(main, random, "projection", context, length, width);
        int output = main.tensor("output", TensorType.FLOAT32, 1, length, width);
        main.operator(BuiltinOperator.ADD, 1, new int[]{projected, input}, new int[]{output}, add());
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /** A FULLY_CONNECTED layer that keeps the [1, length, width] shape of its input. */
    private static int dense(SubgraphBuilder main, Random random, String name, int input, int length, int width) {
        int weights = main.constant(name + "/weights", TensorType.FLOAT32, new int[]{width, width},
                randomFloats(random, width * width));
        int bias = main.constant(name + "/bias", TensorType.FLOAT32, new int[]{width}, randomFloats(random, width));
        int output = main.tensor(name, TensorType.FLOAT32, 1, length, width);
        FullyConnectedOptionsT options = new FullyConnectedOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        options.setKeepNumDims(true);
        main.operator(BuiltinOperator.FULLY_CONNECTED, 1, new int[]{input, weights, bias}, new int[]{output},
                TfliteModelBuilder.options(BuiltinOptions.FullyConnectedOptions, options));
        return output;
    }

    /**
     * NON_MAX_SUPPRESSION_V4 and V5 (soft NMS) over the same 20 boxes and scores, at most 6 kept, and a
     * GATHER of the boxes V4 kept: with a constant maximum, every output has a static shape.
     */
    public static byte[] nonMaxSuppression() {
        int boxes = 20;
        int kept = 6;
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int box = main.tensor("boxes", TensorType.FLOAT32, boxes, 4);
        int score = main.tensor("scores", TensorType.FLOAT32, boxes);
        int maximum = main.constant("max_output_size", TensorType.INT32, new int[0], TfliteModelBuilder.littleEndian(kept));
        int iou = main.constant("iou_threshold", TensorType.FLOAT32, new int[0], TfliteModelBuilder.littleEndian(0.5f));
        int threshold = main.constant("score_threshold", TensorType.FLOAT32, new int[0],
                TfliteModelBuilder.littleEndian(0.1f));
        int sigma = main.constant("soft_nms_sigma", TensorType.FLOAT32, new int[0], TfliteModelBuilder.littleEndian(0.5f));
        int selected4 = main.tensor("v4/selected_indices", TensorType.INT32, kept);
        int valid4 = main.tensor("v4/valid_outputs", TensorType.INT32);
        main.operator(BuiltinOperator.NON_MAX_SUPPRESSION_V4, 1, new int[]{box, score, maximum, iou, threshold},
                new int[]{selected4, valid4}, null);
        int selected5 = main.tensor("v5/selected_indices", TensorType.INT32, kept);
        int scores5 = main.tensor("v5/selected_scores", TensorType.FLOAT32, kept);
        int valid5 = main.tensor("v5/valid_outputs", TensorType.INT32);
        main.operator(BuiltinOperator.NON_MAX_SUPPRESSION_V5, 1, new int[]{box, score, maximum, iou, threshold, sigma},
                new int[]{selected5, scores5, valid5}, null);
        int gathered = main.tensor("v4/boxes", TensorType.FLOAT32, kept, 4);
        main.operator(BuiltinOperator.GATHER, 1, new int[]{box, selected4}, new int[]{gathered}, null);
        main.inputs(box, score);
        main.outputs(selected4, valid4, selected5, scores5, valid5, gathered);
        return model.build();
    }

    /**
     * An IF whose then branch runs a WHILE loop (a CONV_2D and an ADD, three times) and whose else branch
     * squares its input, each then adding a constant the IF passes them; a boolean input chooses. Five
     * subgraphs: main, then, else, the loop's cond and body.
     */
    public static byte[] ifWhileNested() {
        Random random = new Random(233);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        SubgraphBuilder then = model.subgraph("then");
        SubgraphBuilder otherwise = model.subgraph("else");
        SubgraphBuilder cond = model.subgraph("cond");
        SubgraphBuilder body = model.subgraph("body");
        int[] shape = {1, 8, 8, 4};

        int input = main.tensor("input", TensorType.FLOAT32, shape);
        int flag = main.tensor("flag", TensorType.BOOL, 1);
        int chosen = main.tensor("chosen", TensorType.FLOAT32, shape);
        IfOptionsT branches = new IfOptionsT();
        branches.setThenSubgraphIndex(then.index());
        branches.setElseSubgraphIndex(otherwise.index());
        int offset = main.constant("offset", TensorType.FLOAT32, new int[]{4}, randomFloats(random, 4));
        main.operator(BuiltinOperator.IF, 1, new int[]{flag, input, offset}, new int[]{chosen},
                TfliteModelBuilder.options(BuiltinOptions.IfOptions, branches));
        int output = main.tensor("output", TensorType.FLOAT32, shape);
        main.operator(BuiltinOperator.ADD, 1, new int[]{chosen, input}, new int[]{output}, add());
        main.inputs(input, flag);
        main.outputs(output);

        int tx = then.tensor("x", TensorType.FLOAT32, shape);
        int zero = then.constant("zero", TensorType.INT32, new int[]{1}, TfliteModelBuilder.littleEndian(0));
        int count = then.tensor("count", TensorType.INT32, 1);
        int looped = then.tensor("looped", TensorType.FLOAT32, shape);
        WhileOptionsT loop = new WhileOptionsT();
        loop.setCondSubgraphIndex(cond.index());
        loop.setBodySubgraphIndex(body.index());
        then.operator(BuiltinOperator.WHILE, 1, new int[]{zero, tx}, new int[]{count, looped},
                TfliteModelBuilder.options(BuiltinOptions.WhileOptions, loop));
        int thenOffset = then.tensor("offset", TensorType.FLOAT32, 4);
        int shifted = then.tensor("shifted", TensorType.FLOAT32, shape);
        then.operator(BuiltinOperator.ADD, 1, new int[]{looped, thenOffset}, new int[]{shifted}, add());
        then.inputs(tx, thenOffset);
        then.outputs(shifted);

        int ex = otherwise.tensor("x", TensorType.FLOAT32, shape);
        int square = otherwise.tensor("square", TensorType.FLOAT32, shape);
        otherwise.operator(BuiltinOperator.MUL, 1, new int[]{ex, ex}, new int[]{square}, mul());
        int elseOffset = otherwise.tensor("offset", TensorType.FLOAT32, 4);
        int squareShifted = otherwise.tensor("shifted", TensorType.FLOAT32, shape);
        otherwise.operator(BuiltinOperator.ADD, 1, new int[]{square, elseOffset}, new int[]{squareShifted}, add());
        otherwise.inputs(ex, elseOffset);
        otherwise.outputs(squareShifted);

        loopSubgraphs(cond, body, random, shape);
        return model.build();
    }

    /**
     * Sparse constants, as TFLite's converter leaves them when it keeps weights compressed: a float32 CONV_2D
     * whose filter is DENSIFY of a sparse FLOAT32 constant; one whose filter is DEQUANTIZE of DENSIFY of a
     * sparse FLOAT16 constant; a hybrid FULLY_CONNECTED (float input, asymmetric input quantization) whose
     * int8 weights are sparse in 1x16 blocks, the one sparse format its hybrid kernel reads. DENSIFY keeps
     * its output persistent, and so does the hybrid FULLY_CONNECTED its ledger of blocks and its row sums;
     * with more than one thread the first CONV_2D keeps its filter transposed (hwcn_weights) too, but not
     * the second: DEQUANTIZE keeps only the dequantized copy of a constant, and recomputes that of a DENSIFY
     * output on every invoke, in the activation arena, where CONV_2D's multi-threaded kernel refuses it.
     * TFLite 2.20's XNNPACK delegate mishandles the FLOAT16 chain: it takes the DENSIFY, leaves the
     * DEQUANTIZE, and the DEQUANTIZE then reads an output nobody writes.
     */
    public static byte[] sparseConvNet() {
        Random random = new Random(55);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");
        int input = main.tensor("input", TensorType.FLOAT32, 1, 16, 16, 8);

        int[] firstShape = {16, 3, 3, 8};
        int firstFilter = densify(main, "conv1/filter", TensorType.FLOAT32, firstShape,
                sparseElements(random, randomFloats(random, 16 * 9 * 8), Float.BYTES, 1));
        int first = main.tensor("conv1", TensorType.FLOAT32, 1, 16, 16, 16);
        main.operator(BuiltinOperator.CONV_2D, 1, new int[]{input, firstFilter,
                        main.constant("conv1/bias", TensorType.FLOAT32, new int[]{16}, randomFloats(random, 16))},
                new int[]{first}, conv2d(1, ActivationFunctionType.RELU));

        int[] secondShape = {16, 3, 3, 16};
        int halves = densify(main, "conv2/filter_fp16", TensorType.FLOAT16, secondShape,
                sparseElements(random, randomHalves(random, 16 * 9 * 16), 2, 1));
        int secondFilter = main.tensor("conv2/filter", TensorType.FLOAT32, secondShape);
        main.operator(BuiltinOperator.DEQUANTIZE, 3, new int[]{halves}, new int[]{secondFilter}, null);
        int second = main.tensor("conv2", TensorType.FLOAT32, 1, 16, 16, 16);
        main.operator(BuiltinOperator.CONV_2D, 1, new int[]{first, secondFilter,
                        main.constant("conv2/bias", TensorType.FLOAT32, new int[]{16}, randomFloats(random, 16))},
                new int[]{second}, conv2d(1, ActivationFunctionType.RELU));

        // Each row of the map, 16 pixels of 16 channels, one batch of the dense layer. Reshaped, since the sparse
        // hybrid kernel takes the input's last dimension for the weights' depth (EvalSparseHybridImpl's
        // MatchingDim, the smaller of the two): on the [1, 16, 16, 16] map it would quantize 16 of every 256
        // inputs and read the rest of its buffer unwritten.
        int rows = main.tensor("rows", TensorType.FLOAT32, 16, 256);
        ReshapeOptionsT reshape = new ReshapeOptionsT();
        reshape.setNewShape(new int[]{16, 256});
        main.operator(BuiltinOperator.RESHAPE, 1, new int[]{second}, new int[]{rows},
                TfliteModelBuilder.options(BuiltinOptions.ReshapeOptions, reshape));
        int[] weightsShape = {32, 256};
        Sparsity.Compressed weights = Sparsity.compress(TensorType.INT8, weightsShape,
                sparseElements(random, randomBytes(random, 32 * 256), 1, 16), 16);
        int denseWeights = main.constant(TensorSpec.of("dense/weights", TensorType.INT8, weightsShape)
                .withQuantization(Quantization.of(0.01f, 0)).withSparsity(weights.sparsity()), weights.values());
        int bias = main.constant("dense/bias", TensorType.FLOAT32, new int[]{32}, randomFloats(random, 32));
        int output = main.tensor("output", TensorType.FLOAT32, 16, 32);
        main.operator(BuiltinOperator.FULLY_CONNECTED, 9, new int[]{rows, denseWeights, bias}, new int[]{output},
                hybridFullyConnected());
        main.inputs(input);
        main.outputs(output);
        return model.build();
    }

    /** DENSIFY of a constant of {@code dense}, its last dimension compressed: returns the dense output. */
    private static int densify(SubgraphBuilder main, String name, TensorType type, int[] shape, byte[] dense) {
        Sparsity.Compressed compressed = Sparsity.compress(type, shape, dense, 1);
        int sparse = main.constant(TensorSpec.of(name + "/sparse", type, shape).withSparsity(compressed.sparsity()),
                compressed.values());
        int output = main.tensor(name, type, shape);
        main.operator(BuiltinOperator.DENSIFY, 1, new int[]{sparse}, new int[]{output}, null);
        return output;
    }

    /** {@code data} with about two in three of its groups of {@code group} elements zeroed. */
    private static byte[] sparseElements(Random random, byte[] data, int elementBytes, int group) {
        int groupBytes = elementBytes * group;
        for (int from = 0; from < data.length; from += groupBytes) {
            if (random.nextInt(3) != 0) {
                java.util.Arrays.fill(data, from, from + groupBytes, (byte) 0);
            }
        }
        return data;
    }

    /**
     * The hybrid kernels: float32 inputs through constant int8 weights, each quantizing its input on the fly,
     * asymmetrically wherever the options allow it. FULLY_CONNECTED; CONV_2D with per-channel weights (the
     * hybrid per-channel kernel, always asymmetric); BATCH_MATMUL with a constant right-hand side it
     * transposes once; SVDF, whose time weights it dequantizes once; UNIDIRECTIONAL_SEQUENCE_LSTM, whose
     * states are variables. Each keeps the sums of its weights' rows persistent, computed on its first invoke.
     */
    public static byte[] hybridOps() {
        Random random = new Random(144);
        TfliteModelBuilder model = new TfliteModelBuilder();
        SubgraphBuilder main = model.subgraph("main");

        int fcInput = main.tensor("dense/input", TensorType.FLOAT32, 4, 64);
        int fcWeights = int8Weights(main, random, "dense/weights", 0.01f, 32, 64);
        int fcBias = main.constant("dense/bias", TensorType.FLOAT32, new int[]{32}, randomFloats(random, 32));
        int fc = main.tensor("dense", TensorType.FLOAT32, 4, 32);
        main.operator(BuiltinOperator.FULLY_CONNECTED, 9, new int[]{fcInput, fcWeights, fcBias}, new int[]{fc},
                hybridFullyConnected());

        int convInput = main.tensor("conv/input", TensorType.FLOAT32, 1, 8, 8, 8);
        float[] scales = new float[16];
        for (int c = 0; c < scales.length; c++) {
            scales[c] = 0.005f + 0.001f * c;
        }
        int convFilter = main.constant(TensorSpec.of("conv/filter", TensorType.INT8, 16, 3, 3, 8)
                .withQuantization(Quantization.perAxis(0, scales, new long[16])), randomBytes(random, 16 * 9 * 8));
        int convBias = main.constant("conv/bias", TensorType.FLOAT32, new int[]{16}, randomFloats(random, 16));
        int conv = main.tensor("conv", TensorType.FLOAT32, 1, 8, 8, 16);
        main.operator(BuiltinOperator.CONV_2D, 5, new int[]{convInput, convFilter, convBias}, new int[]{conv},
                conv2d(1, ActivationFunctionType.RELU));

        int bmmInput = main.tensor("matmul/input", TensorType.FLOAT32, 1, 8, 32);
        int bmmWeights = int8Weights(main, random, "matmul/weights", 0.02f, 32, 16);
        int bmm = main.tensor("matmul", TensorType.FLOAT32, 1, 8, 16);
        BatchMatMulOptionsT bmmOptions = new BatchMatMulOptionsT();
        bmmOptions.setAsymmetricQuantizeInputs(true);
        main.operator(BuiltinOperator.BATCH_MATMUL, 4, new int[]{bmmInput, bmmWeights}, new int[]{bmm},
                TfliteModelBuilder.options(BuiltinOptions.BatchMatMulOptions, bmmOptions));

        int svdfInput = main.tensor("svdf/input", TensorType.FLOAT32, 2, 24);
        int rank = 2;
        int units = 8;
        int memory = 10;
        int filters = units * rank;
        int weightsFeature = int8Weights(main, random, "svdf/weights_feature", 0.01f, filters, 24);
        int weightsTime = int8Weights(main, random, "svdf/weights_time", 0.01f, filters, memory);
        int svdfBias = main.constant("svdf/bias", TensorType.FLOAT32, new int[]{units}, randomFloats(random, units));
        int svdfState = main.tensor(TensorSpec.of("svdf/state", TensorType.FLOAT32, 2, memory * filters).asVariable());
        int svdf = main.tensor("svdf", TensorType.FLOAT32, 2, units);
        SVDFOptionsT svdfOptions = new SVDFOptionsT();
        svdfOptions.setRank(rank);
        svdfOptions.setFusedActivationFunction(ActivationFunctionType.RELU);
        svdfOptions.setAsymmetricQuantizeInputs(true);
        main.operator(BuiltinOperator.SVDF, 4, new int[]{svdfInput, weightsFeature, weightsTime, svdfBias, svdfState},
                new int[]{svdf}, TfliteModelBuilder.options(BuiltinOptions.SVDFOptions, svdfOptions));

        int lstmInput = main.tensor("lstm/input", TensorType.FLOAT32, 2, 5, 8);
        int lstm = hybridLstm(main, random, lstmInput, 2, 5, 8, 16);

        main.inputs(fcInput, convInput, bmmInput, svdfInput, lstmInput);
        main.outputs(fc, conv, bmm, svdf, lstm);
        return model.build();
    }

    /** A hybrid UNIDIRECTIONAL_SEQUENCE_LSTM: int8 weights of one scale per matrix, float biases and states. */
    private static int hybridLstm(SubgraphBuilder main, Random random, int input, int batch, int steps, int inputs,
                                  int cells) {
        String[] gates = {"input", "forget", "cell", "output"};
        int[] operands = new int[24];
        java.util.Arrays.fill(operands, -1);
        operands[0] = input;
        for (int g = 0; g < gates.length; g++) {
            operands[1 + g] = int8Weights(main, random, "lstm/" + gates[g] + "/input_weights", 0.02f, cells, inputs);
            operands[5 + g] = int8Weights(main, random, "lstm/" + gates[g] + "/recurrent_weights", 0.01f, cells,
                    cells);
            operands[12 + g] = main.constant("lstm/" + gates[g] + "/bias", TensorType.FLOAT32, new int[]{cells},
                    randomFloats(random, cells));
        }
        operands[18] = main.tensor(TensorSpec.of("lstm/output_state", TensorType.FLOAT32, batch, cells).asVariable());
        operands[19] = main.tensor(TensorSpec.of("lstm/cell_state", TensorType.FLOAT32, batch, cells).asVariable());
        int output = main.tensor("lstm", TensorType.FLOAT32, batch, steps, cells);
        UnidirectionalSequenceLSTMOptionsT options = new UnidirectionalSequenceLSTMOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.TANH);
        options.setCellClip(10f);
        options.setTimeMajor(false);
        options.setAsymmetricQuantizeInputs(true);
        main.operator(BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM, 3, operands, new int[]{output},
                TfliteModelBuilder.options(BuiltinOptions.UnidirectionalSequenceLSTMOptions, options));
        return output;
    }

    /** Random int8 weights of shape [rows, columns] and one scale, zero point 0 as hybrid kernels require. */
    private static int int8Weights(SubgraphBuilder main, Random random, String name, float scale, int rows,
                                   int columns) {
        return main.constant(TensorSpec.of(name, TensorType.INT8, rows, columns)
                .withQuantization(Quantization.of(scale, 0)), randomBytes(random, rows * columns));
    }

    private static BuiltinOptionsUnion hybridFullyConnected() {
        FullyConnectedOptionsT options = new FullyConnectedOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        options.setAsymmetricQuantizeInputs(true);
        return TfliteModelBuilder.options(BuiltinOptions.FullyConnectedOptions, options);
    }

    private static BuiltinOptionsUnion mul() {
        MulOptionsT options = new MulOptionsT();
        options.setFusedActivationFunction(ActivationFunctionType.NONE);
        return TfliteModelBuilder.options(BuiltinOptions.MulOptions, options);
    }

    private static BuiltinOptionsUnion softmax() {
        SoftmaxOptionsT options = new SoftmaxOptionsT();
        options.setBeta(1f);
        return TfliteModelBuilder.options(BuiltinOptions.SoftmaxOptions, options);
    }

    private static BuiltinOptionsUnion keepDims() {
        ReducerOptionsT options = new ReducerOptionsT();
        options.setKeepDims(true);
        return TfliteModelBuilder.options(BuiltinOptions.ReducerOptions, options);
    }

    private static BuiltinOptionsUnion batchMatMul(boolean transposeRight) {
        BatchMatMulOptionsT options = new BatchMatMulOptionsT();
        options.setAdjY(transposeRight);
        return TfliteModelBuilder.options(BuiltinOptions.BatchMatMulOptions, options);
    }

}
