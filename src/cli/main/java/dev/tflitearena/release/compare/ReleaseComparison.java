package dev.tflitearena.release.compare;

import dev.tflitearena.release.ReleaseJson;
import dev.tflitearena.release.compare.RoundReport.TensorPlacement;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Two sides measured interleaved, round after round, and what changed from A to B: per model and metric the
 * ratio B/A with its interval and verdict, the same per op type and for the nodes behind a changed op, and the
 * tensors whose place in TFLite's plan moved. What {@code releases --compare} writes and {@code regress} gates on.
 *
 * @param method     how the ratios and intervals were computed, in words
 * @param confidence the confidence of each family of intervals (one metric over the models; one model's ops)
 * @param order      which side ran in each slot, round after round ("A", "B", "B", "A", ...)
 * @param rulesChanged the planner rules that differ between the sides' releases, as the project models them
 */
public record ReleaseComparison(String format, int version, Side a, Side b, String method, double confidence,
                                int rounds, int warmup, int samples, List<String> order, String resolver,
                                int threads, List<String> rulesChanged, List<Comparison> comparisons,
                                List<OpComparison> ops, List<ArenaChange> arenas, List<NotCompared> notCompared) {
    public static final String FORMAT = "tflite-arena-release-comparison";
    public static final int VERSION = 1;

    public ReleaseComparison {
        order = List.copyOf(order);
        rulesChanged = List.copyOf(rulesChanged);
        comparisons = List.copyOf(comparisons);
        ops = List.copyOf(ops);
        arenas = List.copyOf(arenas);
        notCompared = List.copyOf(notCompared);
    }

    /**
     * One side: what it ran and on which models.
     *
     * @param label what the user named it: a release ("2.15") or a jar
     */
    public record Side(String label, String jar, String tfliteLibrary, String tfliteRelease, String modelsDir) {
    }

    /**
     * B/A for one model and metric.
     *
     * @param aMs the median over the rounds of side A's times (each round's fastest sample); {@code bMs} side B's
     * @param text "slower by X% [lo, hi]", "faster by ...", or "no change detected [lo, hi]%"
     */
    public record Comparison(String model, String metric, double ratio, double lo, double hi, String verdict,
                             double aMs, double bMs, String text) {
        static Comparison of(String model, String metric, PairedRatio ratio, double aMs, double bMs) {
            return new Comparison(model, metric, ratio.ratio(), ratio.lo(), ratio.hi(),
                    ratio.verdict().jsonName(), aMs, bMs, ratio.toString());
        }
    }

    /** B/A for the time of one op type in one invoke, and for the nodes that changed most when the op did. */
    public record OpComparison(String model, String op, double ratio, double lo, double hi, String verdict,
                               double aMs, double bMs, String text, List<NodeComparison> nodes) {
        public OpComparison {
            nodes = List.copyOf(nodes);
        }
    }

    /** B/A for one node's time in one invoke. */
    public record NodeComparison(int subgraph, int node, String op, double ratio, double lo, double hi,
                                 String verdict, double aMs, double bMs, String text) {
    }

    /**
     * A model's plan on both sides, when anything in it differs: the figures and each tensor that moved.
     *
     * @param moved the tensors whose arena, offset, size or lifetime differ, with why where the project knows
     */
    public record ArenaChange(String model, Figures a, Figures b, List<MovedTensor> moved) {
        public ArenaChange {
            moved = List.copyOf(moved);
        }
    }

    /** A model's exact figures on one side: tensors, both arenas' plans (high-water marks) and buffers. */
    public record Figures(int tensors, long arenaBytes, long persistentBytes, long arenaBufferBytes,
                          long persistentBufferBytes) {
    }

    /**
     * A tensor whose place differs; {@code a} or {@code b} is absent when only one side's plan has it.
     *
     * @param why the release rule behind it, or what the rules the project models cannot explain
     */
    public record MovedTensor(int subgraph, int tensor, String name, TensorPlacement a, TensorPlacement b,
                              String why) {
    }

    /** A model left out, and why. */
    public record NotCompared(String model, String why) {
        @Override
        public String toString() {
            return model + ": " + why;
        }
    }

    public static ReleaseComparison read(Path file) throws IOException {
        return ReleaseJson.read(file, ReleaseComparison.class, FORMAT);
    }

    public String toJson() throws IOException {
        return ReleaseJson.write(this);
    }
}
