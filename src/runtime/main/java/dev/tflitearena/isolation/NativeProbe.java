package dev.tflitearena.isolation;

import dev.tflitearena.bridge.CrossCheck;
import dev.tflitearena.bridge.DifferentialRun;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeException;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The child side of {@link IsolatedRun}: puts each model file through everything native the commands do
 * (load and verify, build, allocate, snapshot and both plans as {@code plan} and {@code compare} do, then
 * a Java plan handed over and an invoke beside a native-planned one, as {@code run} and a session do), with
 * the builtin kernels and then with XNNPACK, and reports each outcome on standard output. A crash ends this JVM, and the parent learns from the last file
 * begun which model did it. Run by hand on a saved mutant to reproduce a finding.
 */
public final class NativeProbe {
    static final String TAG = "probe";
    private static final long SEED = 1;

    private NativeProbe() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        for (int i = 0; i < args.length; i++) {
            report(out, "begin", i, null);
            try {
                probe(Path.of(args[i]), i, out);
                report(out, "ok", i, null);
            } catch (NativeException | IllegalArgumentException e) {
                report(out, "refused", i, e.getMessage());
            } catch (RuntimeException e) {
                report(out, "failed", i, e.toString());
            }
        }
        out.flush();
    }

    private static void probe(Path file, int i, PrintStream out) {
        report(out, "stage", i, "load");
        try (NativeModel model = NativeModel.load(file)) {
            // XNNPACK prepares a float graph in code of its own, which a hostile model can reach too.
            for (InterpreterSettings settings : List.of(InterpreterSettings.DEFAULT,
                    InterpreterSettings.DEFAULT.withXnnpack(true))) {
                String resolver = settings.xnnpack() ? " (XNNPACK)" : "";
                report(out, "stage", i, "compare" + resolver);
                CrossCheck.Result check = CrossCheck.run(model, settings, SEED);
                report(out, "stage", i, "run" + resolver);
                // A dynamic graph cannot take a Java plan; a second native-planned interpreter still invokes.
                TflitePlanner planner = TflitePlanner.isDynamic(check.graph()) ? null : new TflitePlanner();
                DifferentialRun.run(model, settings, planner, 1, SEED, false);
            }
        }
    }

    /** One line per event, tab-separated, so the parent can tell it from what the runtime prints. */
    private static void report(PrintStream out, String event, int file, String detail) {
        StringBuilder line = new StringBuilder(TAG).append('\t').append(event).append('\t').append(file);
        if (detail != null) {
            line.append('\t').append(detail.replace('\n', ' ').replace('\t', ' '));
        }
        out.println(line);
        out.flush();
    }
}
