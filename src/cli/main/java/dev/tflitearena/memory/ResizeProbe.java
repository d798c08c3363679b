package dev.tflitearena.memory;

import dev.tflitearena.isolation.ChildProbe;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.isolation.Supervisor;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.session.BakedPlanUse;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Which shapes of its first input a model accepts: TFLite takes any shape in ResizeInputTensor, and only
 * preparing the ops (a RESHAPE to a fixed shape, an ADD of two branches that no longer match) or running
 * them tells. A kernel can even crash the process at a shape it prepared: a strided convolution whose map
 * shrinks to 0x0 dies of SIGFPE in Invoke. So the shapes are tried in a child JVM ({@link IsolatedRun}: one
 * for them all, and another after each crash), with this class's {@link #main} on the child's side. A shape
 * counts when every configuration re-plans and invokes at it.
 */
public final class ResizeProbe {
    /** The step that re-plans for the shape: a new interpreter, its input resized and its tensors allocated. */
    static final String ALLOCATE = "allocate";
    static final String INVOKE = "invoke";

    /**
     * A shape the model refused: the configuration and the step ({@value #ALLOCATE} or {@value #INVOKE}) that
     * found out, the signal when TFLite crashed (null when it refused with a message), and what it said.
     */
    public record Refusal(int[] shape, String planner, String step, String signal, String reason) {
        /** The shape, where it failed and why. */
        public String summary() {
            return InputShapes.format(shape) + " refused at " + step + " (planner " + planner + "): " + reason;
        }
    }

    /** The shapes the model runs at, its own first, and those it refused. */
    record Outcome(String input, List<int[]> accepted, List<Refusal> refused) {
    }

    private ResizeProbe() {
    }

    /** Tries the candidates in order; null candidates are the {@link InputShapes#defaults} of its own shape. */
    static Outcome probe(TfLiteModel model, List<SessionOptions> configurations, List<int[]> candidates) {
        String input;
        int[] own;
        Supervisor.doing("allocating " + model.path() + " at its own input shape");
        try (Session session = model.newSession(configurations.get(0))) {
            if (session.inputs().isEmpty()) {
                throw new IllegalArgumentException(model.path() + ": the model has no input to resize");
            }
            input = session.inputs().get(0).name();
            own = session.inputs().get(0).shape();
        }
        List<int[]> shapes = new ArrayList<>();
        for (int[] shape : candidates == null ? InputShapes.defaults(own) : candidates) {
            if (!Arrays.equals(shape, own) && shapes.stream().noneMatch(s -> Arrays.equals(s, shape))) {
                shapes.add(shape);
            }
        }
        List<IsolatedRun.Result> results = IsolatedRun.runAll(ResizeProbe.class,
                List.of(model.path().toAbsolutePath().toString(), configurations.stream().map(ResizeProbe::encode)
                        .collect(Collectors.joining(","))),
                shapes.stream().map(InputShapes::format).toList(), IsolatedRun.Limits.DEFAULT);
        List<int[]> accepted = new ArrayList<>(List.of(own));
        List<Refusal> refused = new ArrayList<>();
        for (int k = 0; k < shapes.size(); k++) {
            IsolatedRun.Result result = results.get(k);
            if (result.outcome() == IsolatedRun.Outcome.OK) {
                accepted.add(shapes.get(k));
            } else {
                refused.add(refusal(shapes.get(k), configurations, result));
            }
        }
        return new Outcome(input, accepted, refused);
    }

    /** The child's report as a refusal; its stage is the planner and the step, or "start" before the first. */
    private static Refusal refusal(int[] shape, List<SessionOptions> configurations, IsolatedRun.Result result) {
        String[] stage = result.stage().split(" ", 2);
        String planner = stage.length == 2 ? stage[0] : configurations.get(0).planner();
        String reason = result.outcome() == IsolatedRun.Outcome.REFUSED ? result.detail()
                : result.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + result.detail();
        return new Refusal(shape, planner, stage[stage.length - 1], result.signal(), reason);
    }

    /**
     * The child's side: {@code MODEL CONFIGURATIONS SHAPE...}, the configurations as {@link #encode} writes
     * them, joined by commas. Tries each shape with each configuration in turn, stopping at the first that
     * refuses it, as a session of the cycle would: resized from the model's own shape, then invoked once.
     */
    public static void main(String[] args) {
        List<SessionOptions> configurations = Arrays.stream(args[1].split(",")).map(ResizeProbe::decode).toList();
        try (TfLiteModel model = TfLiteModel.load(Path.of(args[0]))) {
            ChildProbe.each(List.of(args).subList(2, args.length),
                    (shape, stage) -> tryShape(model, configurations, InputShapes.parse(shape), stage));
        }
    }

    private static void tryShape(TfLiteModel model, List<SessionOptions> configurations, int[] shape,
                                 Consumer<String> stage) {
        for (SessionOptions options : configurations) {
            // TFLite says why it refused only on standard error.
            NativeStderr.capture(() -> {
                try (Session session = model.newSession(options)) {
                    stage.accept(options.planner() + " " + ALLOCATE);
                    session.resizeInput(0, shape);
                    stage.accept(options.planner() + " " + INVOKE);
                    session.run(MemoryProfile.seededInputs(session));
                }
            });
        }
    }

    private static String encode(SessionOptions options) {
        return options.planner() + ":" + options.xnnpack() + ":" + options.threads() + ":" + options.xnnpackThreads()
                + ":" + options.shareConstants() + ":" + options.order() + ":" + options.releaseInputs() + ":"
                + options.bakedPlan();
    }

    private static SessionOptions decode(String text) {
        String[] fields = text.split(":");
        return new SessionOptions(fields[0], Boolean.parseBoolean(fields[1]), Integer.parseInt(fields[2]),
                Integer.parseInt(fields[3]), Boolean.parseBoolean(fields[4]), Order.valueOf(fields[5]),
                Boolean.parseBoolean(fields[6]), BakedPlanUse.valueOf(fields[7]));
    }
}
