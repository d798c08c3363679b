package dev.tflitearena.isolation;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The child of {@link IsolatedRun}'s model checks: puts each model file through everything native the commands
 * do (load and verify, build, allocate, snapshot and both plans as {@code plan} and {@code compare} do, then
 * a Java plan handed over and an invoke beside a native-planned one, as {@code run} and a session do), with
 * the builtin kernels and then with XNNPACK, reporting each stage and outcome through {@link ChildProbe}.
 * Run by hand on a saved mutant to reproduce a finding.
 */
public final class NativeProbe {
    private static final long SEED = 1;

    private NativeProbe() {
    }

    public static void main(String[] args) {
        ChildProbe.each(List.of(args), (file, stage) -> probe(Path.of(file), stage));
    }

    private static void probe(Path file, Consumer<String> stage) {
        stage.accept("load");
        try (NativeModel model = NativeModel.load(file)) {
            // XNNPACK prepares a float graph in code of its own, which a hostile model can reach too.
            for (InterpreterSettings settings : List.of(InterpreterSettings.DEFAULT,
                    InterpreterSettings.DEFAULT.withXnnpack(true))) {
                String resolver = settings.xnnpack() ? " (XNNPACK)" : "";
                stage.accept("compare" + resolver);
                CrossCheck.run(model, settings, SEED);
                stage.accept("run" + resolver);
                DifferentialRun.run(model, settings, new TflitePlanner(), 1, SEED, false);
            }
        }
    }
}
