package dev.tflitearena.session;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;

/**
 * How a {@link Session} runs its model: {@code planner} is {@value #NATIVE} for TFLite's own arena planner,
 * or the name of a Java planner of {@link Planners} whose plan is handed to the interpreter; {@code xnnpack}
 * delegates float graphs to XNNPACK; {@code threads} of {@link InterpreterSettings#DEFAULT_THREADS} leaves
 * TFLite's default; {@code shareConstants} has the session back the persistent tensors that derive from the
 * model's constants with one region for every sharing session of its {@link TfLiteModel} in the same
 * configuration ({@link dev.tflitearena.bridge.SharedConstants}); a {@link SessionPool}'s sessions always share.
 */
public record SessionOptions(String planner, boolean xnnpack, int threads, boolean shareConstants) {
    public static final String NATIVE = Planners.NATIVE;
    public static final SessionOptions DEFAULT = new SessionOptions(NATIVE, false, InterpreterSettings.DEFAULT_THREADS,
            false);

    public SessionOptions {
        // Fail where the options are made, not at the first session: both checks name the valid values.
        Planners.byNameOrNative(planner);
        new InterpreterSettings(xnnpack, false, threads, null);
    }

    public SessionOptions withPlanner(String name) {
        return new SessionOptions(name, xnnpack, threads, shareConstants);
    }

    public SessionOptions withXnnpack(boolean on) {
        return new SessionOptions(planner, on, threads, shareConstants);
    }

    public SessionOptions withThreads(int count) {
        return new SessionOptions(planner, xnnpack, count, shareConstants);
    }

    // Sharing what derives from constants (issue 16).
    public SessionOptions withSharing(boolean on) {
        return new SessionOptions(planner, xnnpack, threads, on);
    }

    InterpreterSettings settings() {
        return new InterpreterSettings(xnnpack, false, threads, null);
    }

    /** The Java planner, or null for the native one. */
    Planner javaPlanner() {
        return Planners.byNameOrNative(planner);
    }
}
