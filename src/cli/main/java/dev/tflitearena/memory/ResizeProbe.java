package dev.tflitearena.memory;

import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which shapes of its first input a model accepts: TFLite takes any shape in ResizeInputTensor, and only
 * preparing the ops (a RESHAPE to a fixed shape, an ADD of two branches that no longer match) or running
 * them tells. A shape counts when every configuration re-plans and invokes at it.
 */
public final class ResizeProbe {
    /** A shape the model refused, with the configuration that found out and what TFLite said. */
    public record Refusal(int[] shape, String planner, String reason) {
    }

    /** The shapes the model runs at, its own first, and those it refused. */
    record Outcome(String input, List<int[]> accepted, List<Refusal> refused) {
    }

    private ResizeProbe() {
    }

    /** Tries the candidates in order; null candidates are the {@link InputShapes#defaults} of its own shape. */
    static Outcome probe(TfLiteModel model, List<SessionOptions> configurations, List<int[]> candidates) {
        List<int[]> accepted = new ArrayList<>();
        List<Refusal> refused = new ArrayList<>();
        String input;
        try (Session session = model.newSession(configurations.get(0))) {
            if (session.inputs().isEmpty()) {
                throw new IllegalArgumentException(model.path() + ": the model has no input to resize");
            }
            input = session.inputs().get(0).name();
            accepted.add(session.inputs().get(0).shape());
        }
        for (int[] shape : candidates == null ? InputShapes.defaults(accepted.get(0)) : candidates) {
            if (accepted.stream().noneMatch(a -> Arrays.equals(a, shape))) {
                Refusal refusal = refusal(model, configurations, shape);
                if (refusal == null) {
                    accepted.add(shape);
                } else {
                    refused.add(refusal);
                }
            }
        }
        return new Outcome(input, accepted, refused);
    }

    private static Refusal refusal(TfLiteModel model, List<SessionOptions> configurations, int[] shape) {
        for (SessionOptions options : configurations) {
            try (Session session = model.newSession(options)) {
                NativeStderr.capture(() -> {
                    session.resizeInput(0, shape);
                    session.run(MemoryProfile.seededInputs(session));
                });
            } catch (NativeStderr.Failure e) {
                return new Refusal(shape, options.planner(), e.getMessage());
            }
        }
        return null;
    }
}
