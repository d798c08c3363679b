package dev.tflitearena.bench;

import ai.djl.MalformedModelException;
import ai.djl.translate.TranslateException;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.session.Outputs;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.SessionPool;
import dev.tflitearena.session.TfLiteModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Inferences per second a JVM user gets: one operation writes the model's seeded inputs, runs it once and
 * copies every output to the Java heap, on every variant, so that each pays what a caller pays. The variants:
 * a {@link SessionPool} with 1, 2 and 4 concurrent callers (JMH threads) and as many sessions as callers, so
 * that no caller waits for a session and the figure is the interpreters' own scaling; one raw
 * {@link NativeInterpreter} with one caller, the reference; and DJL's TFLite engine with one caller (its
 * predictors share one interpreter, which is not thread-safe). Ours run XNNPACK off and on; DJL runs its
 * default, which applies no XNNPACK (its Java wrapper applies it only when asked).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ThroughputBenchmark {
    /** Far longer than any inference: with a session per caller, a wait for one is a bug, not a measurement. */
    static final Duration POOL_TIMEOUT = Duration.ofMinutes(1);

    @State(Scope.Benchmark)
    public static class Pooled {
        TfLiteModel model;
        SessionPool pool;
        ByteBuffer[] inputs;

        /**
         * A pool of as many sessions as the benchmark has callers, with the raw interpreter's settings and
         * inputs; that interpreter itself idles through the trial.
         */
        @Setup(Level.Trial)
        public void open(InvokeBenchmark.NativePlanned prepared, BenchmarkParams params) {
            open(prepared, params.getThreads());
        }

        void open(InvokeBenchmark.NativePlanned prepared, int sessions) {
            model = TfLiteModel.load(prepared.path());
            pool = model.newPool(SessionOptions.DEFAULT.withXnnpack(prepared.xnnpack), sessions, POOL_TIMEOUT);
            inputs = direct(prepared.inputs);
        }

        Outputs infer() throws Exception {
            return pool.run((Object[]) inputs);
        }

        @TearDown(Level.Trial)
        public void close() {
            pool.close();
            model.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Djl {
        DjlPredictor predictor;
        ByteBuffer[] inputs;

        @Setup(Level.Trial)
        public void load(PreparedModel prepared) throws IOException, MalformedModelException {
            predictor = DjlPredictor.load(prepared.path(), inputTensors(prepared.interpreter));
            inputs = direct(prepared.inputs);
        }

        byte[][] infer() throws TranslateException {
            return predictor.run(inputs);
        }

        @TearDown(Level.Trial)
        public void close() {
            predictor.close();
        }
    }

    @Benchmark
    @Threads(1)
    public byte[][] nativeInterpreter(InvokeBenchmark.NativePlanned raw) {
        return infer(raw.interpreter, raw.inputs);
    }

    /** JMH fixes a benchmark's callers per method, not per parameter: one method per caller count. */
    @Benchmark
    @Threads(1)
    public Outputs pool1(Pooled pooled) throws Exception {
        return pooled.infer();
    }

    @Benchmark
    @Threads(2)
    public Outputs pool2(Pooled pooled) throws Exception {
        return pooled.infer();
    }

    @Benchmark
    @Threads(4)
    public Outputs pool4(Pooled pooled) throws Exception {
        return pooled.infer();
    }

    @Benchmark
    @Threads(1)
    public byte[][] djl(Djl djl) throws TranslateException {
        return djl.infer();
    }

    /** The raw interpreter's operation, the same work as a session's run. */
    static byte[][] infer(NativeInterpreter interpreter, byte[][] inputs) {
        for (int i = 0; i < inputs.length; i++) {
            interpreter.writeInput(i, inputs[i]);
        }
        interpreter.invoke();
        byte[][] outputs = new byte[interpreter.outputCount()][];
        for (int i = 0; i < outputs.length; i++) {
            outputs[i] = interpreter.readOutput(i);
        }
        return outputs;
    }

    static List<Tensor> inputTensors(NativeInterpreter interpreter) {
        return IntStream.range(0, interpreter.inputCount()).mapToObj(interpreter::input).toList();
    }

    /** The inputs as a session and DJL take them without a further copy: direct, in native byte order. */
    static ByteBuffer[] direct(byte[][] data) {
        ByteBuffer[] buffers = new ByteBuffer[data.length];
        for (int i = 0; i < data.length; i++) {
            buffers[i] = ByteBuffer.allocateDirect(data[i].length).order(ByteOrder.nativeOrder()).put(data[i]).flip();
        }
        return buffers;
    }
}
