package dev.tflitearena.release.compare;

import dev.tflitearena.release.ReleaseJson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one side of an interleaved comparison measured in one round, in one JVM: per model, the fastest sample of
 * each metric ({@link SampleTime}), and in the first round the figures that do not vary (the plans).
 *
 * @param tfliteLibrary the native library's own version, e.g. "2.20.0"
 * @param tfliteRelease the release whose planner rules the Java plan followed, e.g. "2.20"
 * @param threads       TFLite's thread count, -1 for its default
 */
public record RoundReport(String format, int version, String tfliteLibrary, String tfliteRelease, String resolver,
                          int threads, int warmup, int samples, List<ModelRound> models) {
    public static final String FORMAT = "tflite-arena-release-round";
    public static final int VERSION = 1;

    public RoundReport {
        models = List.copyOf(models);
    }

    /**
     * One model in one round; a model the release cannot build has only its {@code error}. Times are the fastest samples'
     * in milliseconds; a metric not measured is absent.
     *
     * @param opsMs per op type, the summed time of its nodes in one invoke (a control-flow op's includes the
     *              subgraphs it runs)
     * @param nodes per node, its time in one invoke
     */
    public record ModelRound(String model, String error, Double invokeMs, Double nativeSetupMs, Double javaPlanMs,
                             Map<String, Double> opsMs, List<NodeTime> nodes, Plans plans) {
        public ModelRound {
            opsMs = opsMs == null ? Map.of() : Map.copyOf(opsMs);
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
        }

        public static ModelRound failed(String model, String error) {
            return new ModelRound(model, error, null, null, null, null, null, null);
        }

        public boolean ok() {
            return error == null;
        }

        public Double time(Metric metric) {
            return switch (metric) {
                case INVOKE -> invokeMs;
                case NATIVE_SETUP -> nativeSetupMs;
                case JAVA_PLAN -> javaPlanMs;
                case OPS -> throw new IllegalArgumentException("ops have a time per op type, not one");
            };
        }
    }

    /** One node's time in one invoke: its subgraph, its index there and its op. */
    public record NodeTime(int subgraph, int node, String op, double ms) {
    }

    /**
     * TFLite's plan of a model on this side (builtin kernels) and the Java 'tflite' planner's plan of the same
     * prepared graph under the other side's release rules, which tells whether those rules explain a tensor
     * that moved.
     *
     * @param tensors    tensors of the prepared interpreter, temporaries included
     * @param otherRules the release whose rules {@code javaPlanUnderOtherRules} followed
     */
    public record Plans(int tensors, long arenaBytes, long persistentBytes, long arenaBufferBytes,
                        long persistentBufferBytes, List<TensorPlacement> nativePlan, String otherRules,
                        List<TensorPlacement> javaPlanUnderOtherRules) {
        public Plans {
            nativePlan = List.copyOf(nativePlan);
            javaPlanUnderOtherRules = javaPlanUnderOtherRules == null ? List.of() : List.copyOf(javaPlanUnderOtherRules);
        }
    }

    /** Where a tensor lives in a plan: its arena ("rw" or "persistent"), offset (-1: none), bytes and lifetime. */
    public record TensorPlacement(int subgraph, int tensor, String name, String arena, long offset, long bytes,
                                  int first, int last) {
    }

    public Optional<ModelRound> model(String name) {
        return models.stream().filter(m -> m.model().equals(name)).findFirst();
    }

    public static RoundReport read(Path file) throws IOException {
        return ReleaseJson.read(file, RoundReport.class, FORMAT, VERSION);
    }

    public String toJson() throws IOException {
        return ReleaseJson.write(this);
    }
}
