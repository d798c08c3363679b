package dev.tflitearena.bench;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * Whether a Java plan changes inference speed: {@code Invoke()} of the native-planned interpreter against one
 * running on a Java plan of the same model and settings, both on the same fixed inputs, XNNPACK off and on.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class InvokeBenchmark {

    @State(Scope.Benchmark)
    public static class NativePlanned extends PreparedModel {
        @Param({"false", "true"})
        public boolean xnnpack;

        @Override
        InterpreterSettings settings() {
            return InterpreterSettings.DEFAULT.withXnnpack(xnnpack);
        }
    }

    @State(Scope.Benchmark)
    public static class JavaPlanned {
        NativeInterpreter interpreter;

        @Setup(Level.Trial)
        public void handOver(NativePlanned prepared, PlannerParam planner) {
            interpreter = prepared.build();
            planner.handOver(prepared.interpreter, interpreter);
            prepared.feed(interpreter);
        }

        @TearDown(Level.Trial)
        public void close() {
            interpreter.close();
        }
    }

    @Benchmark
    public void nativePlanned(NativePlanned prepared) {
        prepared.interpreter.invoke();
    }

    @Benchmark
    public void javaPlanned(JavaPlanned java) {
        java.interpreter.invoke();
    }
}
