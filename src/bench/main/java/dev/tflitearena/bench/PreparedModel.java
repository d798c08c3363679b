package dev.tflitearena.bench;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.SeededInputs;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;

/**
 * A model and one interpreter of it, prepared and planned by TFLite and fed fixed seeded inputs, for a whole
 * trial. {@code model} is a file name in the folder named by the system property {@value #MODELS_PROPERTY}
 * ({@code tests/models} by default, where tests/fetch-models.sh puts the real models). Its default values are
 * the default models of every run (see {@link BenchSuite#DEFAULT_MODELS}): one small, one mid-sized and one
 * large graph.
 */
@State(Scope.Benchmark)
public class PreparedModel {
    public static final String MODELS_PROPERTY = "tflitearena.models";
    private static final long INPUT_SEED = 1;

    @Param({"face_detection_short_range.tflite", "hand_landmark_full.tflite", "pose_landmark_lite.tflite"})
    public String model;

    NativeModel loaded;
    NativeInterpreter interpreter;
    /** The seeded bytes of each input, made once: making them costs more than some models' invoke. */
    byte[][] inputs;

    @Setup(Level.Trial)
    public void prepare() {
        loaded = NativeModel.load(path());
        interpreter = build();
        interpreter.allocateTensors();
        inputs = new byte[interpreter.inputCount()][];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = SeededInputs.of(interpreter.input(i), INPUT_SEED);
        }
        feed(interpreter);
    }

    /** The trial's interpreter settings: TFLite's builtin kernels alone unless a subclass says otherwise. */
    InterpreterSettings settings() {
        return InterpreterSettings.DEFAULT;
    }

    /** Another interpreter of the model with the trial's settings, not yet allocated. */
    NativeInterpreter build() {
        return NativeInterpreter.build(loaded, settings());
    }

    /** The same inputs for every interpreter of every trial, so that invokes do the same work. */
    void feed(NativeInterpreter other) {
        for (int i = 0; i < inputs.length; i++) {
            other.writeInput(i, inputs[i]);
        }
    }

    /** The model file. */
    Path path() {
        return Path.of(System.getProperty(MODELS_PROPERTY, "tests/models")).resolve(model);
    }

    @TearDown(Level.Trial)
    public void close() {
        interpreter.close();
        loaded.close();
    }
}
