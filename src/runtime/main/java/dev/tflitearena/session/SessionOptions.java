package dev.tflitearena.session;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.XnnpackOptions;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;

import java.util.Objects;

/**
 * How a {@link Session} runs its model: {@code planner} is {@value #NATIVE} for TFLite's own arena planner,
 * or the name of a Java planner of {@link Planners} whose plan is handed to the interpreter; {@code xnnpack}
 * delegates float graphs to XNNPACK; {@code threads}, TFLite's own threads, and {@code xnnpackThreads}, the
 * XNNPACK delegate's, of {@link InterpreterSettings#DEFAULT_THREADS} leave TFLite's defaults. With XNNPACK
 * threads, the session's XNNPACK is a delegate of that many threads ({@link XnnpackOptions}) instead of
 * TFLite's default delegate. {@code shareConstants} has the session back the persistent tensors that derive
 * from the model's constants with one region for every sharing session of its {@link TfLiteModel} in the same
 * configuration ({@link dev.tflitearena.bridge.sharing.SharedConstants}); a {@link SessionPool}'s sessions always share.
 * {@code order} {@link Order#MEMORY} runs the primary subgraph's nodes in the order {@link MemoryOrder} picks to
 * lower the arena's bound, with the outputs of the model's order; it needs TFLite's own kernels (no XNNPACK).
 * {@code releaseInputs} has the Java planner free each graph input after its last consumer
 * ({@link dev.tflitearena.graph.Graph.Options#releaseInputs()}), so that later tensors reuse its bytes: every run
 * writes every input anyway, and reading an input back ({@link Session#inputValues}) is refused, as its bytes
 * hold other tensors by the end of a run. TFLite's own planner knows no such rule: it needs a Java planner.
 * {@code bakedPlan} says what a plan baked into the model ({@code bake --for tflite}) is to the session: by
 * default ({@link BakedPlanUse#IF_VALID}) it replaces planning, whatever {@code planner} says, when it was made
 * for this model, release and these options and the validator accepts it; otherwise the session plans as
 * {@code planner} says and logs why.
 */
public record SessionOptions(String planner, boolean xnnpack, int threads, int xnnpackThreads,
                             boolean shareConstants, Order order, boolean releaseInputs, BakedPlanUse bakedPlan) {
    /** The planner name of TFLite's own arena planner. */
    public static final String NATIVE = Planners.NATIVE;
    /** TFLite's planner and defaults: no XNNPACK, TFLite's threads, nothing shared, the model's order. */
    public static final SessionOptions DEFAULT = new SessionOptions(NATIVE, false, InterpreterSettings.DEFAULT_THREADS,
            InterpreterSettings.DEFAULT_THREADS, false);

    /** Checks the options together; each refusal names the valid values. */
    public SessionOptions {
        // Fail where the options are made, not at the first session: the checks name the valid values.
        Planners.byNameOrNative(planner);
        if (xnnpackThreads != InterpreterSettings.DEFAULT_THREADS && !xnnpack) {
            throw new IllegalArgumentException("XNNPACK threads (" + xnnpackThreads + ") need XNNPACK on: "
                    + "withXnnpack(true)");
        }
        settings(xnnpack, threads, xnnpackThreads);
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(bakedPlan, "bakedPlan");
        if (order == Order.MEMORY && xnnpack) {
            throw new IllegalArgumentException("the memory order applies to TFLite's own kernels; XNNPACK replaces "
                    + "the ops it takes by a node of its own: withXnnpack(false)");
        }
        if (releaseInputs && Planners.byNameOrNative(planner) == null) {
            throw new IllegalArgumentException("releasing inputs needs a Java planner (" + Planners.names()
                    + "): TFLite's own planner keeps every graph input to the end of a run");
        }
    }

    /** In the model's own order, graph inputs kept to the end of a run, as TFLite keeps them. */
    public SessionOptions(String planner, boolean xnnpack, int threads, int xnnpackThreads, boolean shareConstants) {
        this(planner, xnnpack, threads, xnnpackThreads, shareConstants, Order.MODEL, false, BakedPlanUse.IF_VALID);
    }

    /** The planner: {@value #NATIVE}, or the name of a Java planner ({@link Planners#names()}). */
    public SessionOptions withPlanner(String name) {
        return new SessionOptions(name, xnnpack, threads, xnnpackThreads, shareConstants, order, releaseInputs, bakedPlan);
    }

    /** Off, or on with TFLite's default XNNPACK delegate. */
    public SessionOptions withXnnpack(boolean on) {
        return new SessionOptions(planner, on, threads, InterpreterSettings.DEFAULT_THREADS, shareConstants, order,
                releaseInputs, bakedPlan);
    }

    /**
     * The threads TFLite's own kernels run on (CONV_2D's and FULLY_CONNECTED's ruy and Eigen: the caller and
     * {@code count - 1} workers), {@link InterpreterSettings#DEFAULT_THREADS} for TFLite's default. Each session
     * has its own workers, made at its first run and ended when it closes; XNNPACK's are apart
     * ({@link #withXnnpackThreads}).
     */
    public SessionOptions withThreads(int count) {
        return new SessionOptions(planner, xnnpack, threads(count), xnnpackThreads, shareConstants, order,
                releaseInputs, bakedPlan);
    }

    /**
     * XNNPACK on, through a delegate of {@code count} threads (at least 1): the caller and {@code count - 1}
     * pthreadpool workers, the session's own, made with the delegate and ended when the session closes.
     */
    public SessionOptions withXnnpackThreads(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("XNNPACK threads must be at least 1; got " + count);
        }
        return new SessionOptions(planner, true, threads, count, shareConstants, order, releaseInputs, bakedPlan);
    }

    /** Whether the session shares what derives from the model's constants with the model's other sessions. */
    public SessionOptions withSharing(boolean on) {
        return new SessionOptions(planner, xnnpack, threads, xnnpackThreads, on, order, releaseInputs, bakedPlan);
    }

    /** The order the primary subgraph's nodes run in: {@link Order#MEMORY} needs XNNPACK off. */
    public SessionOptions withOrder(Order next) {
        return new SessionOptions(planner, xnnpack, threads, xnnpackThreads, shareConstants, next, releaseInputs,
                bakedPlan);
    }

    /** Whether the Java planner frees each graph input after its last consumer (a Java planner is needed). */
    public SessionOptions withReleaseInputs(boolean on) {
        return new SessionOptions(planner, xnnpack, threads, xnnpackThreads, shareConstants, order, on, bakedPlan);
    }

    /**
     * What a plan baked into the model is to the session: {@link BakedPlanUse#IF_VALID} (the default),
     * {@link BakedPlanUse#REQUIRED} or {@link BakedPlanUse#IGNORED}.
     */
    public SessionOptions withBakedPlan(BakedPlanUse use) {
        return new SessionOptions(planner, xnnpack, threads, xnnpackThreads, shareConstants, order, releaseInputs,
                use);
    }

    /** The settings the interpreters of sessions with these options are built with. */
    public InterpreterSettings settings() {
        return settings(xnnpack, threads, xnnpackThreads);
    }

    private static int threads(int count) {
        if (count < 1 && count != InterpreterSettings.DEFAULT_THREADS) {
            throw new IllegalArgumentException("TFLite threads must be at least 1, or "
                    + InterpreterSettings.DEFAULT_THREADS + " for TFLite's default; got " + count);
        }
        return count;
    }

    private static InterpreterSettings settings(boolean xnnpack, int threads, int xnnpackThreads) {
        return new InterpreterSettings(xnnpack, false, threads, null).withXnnpackOptions(
                xnnpackThreads == InterpreterSettings.DEFAULT_THREADS ? null : XnnpackOptions.threads(xnnpackThreads));
    }

    /** The Java planner, or null for the native one. */
    Planner javaPlanner() {
        return Planners.byNameOrNative(planner);
    }
}
