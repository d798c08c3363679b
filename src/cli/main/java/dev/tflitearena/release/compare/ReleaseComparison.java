package dev.tflitearena.release.compare;

import dev.tflitearena.release.ReleaseJson;
import dev.tflitearena.release.compare.RoundReport.TensorPlacement;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Two sides measured interleaved, round after round, and what changed from A to B: per model and metric the
 * ratio B/A with its interval and verdict, the same per op type and for the nodes behind a changed op, and the
 * tensors whose place in TFLite's plan moved. What {@code releases --compare} writes and {@code regress} gates on.
 *
 * @param method     how the ratios and intervals were computed, in words
 * @param confidence the confidence of each family of intervals (one metric over the models; one model's ops)
 * @param order      which side ran in each slot, round after round ("A", "B", "B", "A", ...)
 * @param rulesChanged the planner rules that differ between the sides' releases, as the project models them
 * @param notCompared  models a side has or runs and the other does not: a regression
 * @param notRunnable  models neither side runs (an op their resolvers lack), left out of the rounds
 */
public record ReleaseComparison(String format, int version, Side a, Side b, String method, double confidence,
                                int rounds, int warmup, int samples, List<String> order, String resolver,
                                int threads, List<String> rulesChanged, List<Comparison> comparisons,
                                List<OpComparison> ops, List<ArenaChange> arenas, List<NotCompared> notCompared,
                                List<NotCompared> notRunnable) {
    public static final String FORMAT = "tflite-arena-release-comparison";
    public static final int VERSION = 1;

    /** A list a file leaves out is empty: {@link #read} refuses a comparison without comparisons. */
    public ReleaseComparison {
        order = order == null ? List.of() : List.copyOf(order);
        rulesChanged = rulesChanged == null ? List.of() : List.copyOf(rulesChanged);
        comparisons = comparisons == null ? List.of() : List.copyOf(comparisons);
        ops = ops == null ? List.of() : List.copyOf(ops);
        arenas = arenas == null ? List.of() : List.copyOf(arenas);
        notCompared = notCompared == null ? List.of() : List.copyOf(notCompared);
        notRunnable = notRunnable == null ? List.of() : List.copyOf(notRunnable);
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

    /**
     * The comparison in the file, refused in one line naming the file and the field unless a gate can trust it:
     * both sides named, at least one comparison, each of a known metric and verdict, with a positive ratio inside
     * its interval; every arena change with both sides' figures.
     */
    public static ReleaseComparison read(Path file) throws IOException {
        ReleaseComparison c = ReleaseJson.read(file, ReleaseComparison.class, FORMAT, VERSION);
        if (c.a() == null || c.b() == null) {
            throw new IOException(file + ": field " + (c.a() == null ? "a" : "b") + " missing: which side is which "
                    + "is not said");
        }
        if (c.comparisons().isEmpty()) {
            throw new IOException(file + ": field comparisons is empty: nothing was compared, so nothing to gate on");
        }
        for (int i = 0; i < c.comparisons().size(); i++) {
            Comparison x = c.comparisons().get(i);
            String at = file + ": comparisons[" + i + "]";
            if (x.model() == null || x.model().isBlank()) {
                throw new IOException(at + ": field model missing");
            }
            check(at, x.metric(), x.verdict(), x.ratio(), x.lo(), x.hi());
        }
        for (int i = 0; i < c.ops().size(); i++) {
            OpComparison x = c.ops().get(i);
            check(file + ": ops[" + i + "]", Metric.OPS.jsonName(), x.verdict(), x.ratio(), x.lo(), x.hi());
        }
        for (int i = 0; i < c.arenas().size(); i++) {
            ArenaChange x = c.arenas().get(i);
            if (x.model() == null || x.a() == null || x.b() == null) {
                throw new IOException(file + ": arenas[" + i + "]: fields model, a and b are needed");
            }
        }
        return c;
    }

    private static void check(String at, String metric, String verdict, double ratio, double lo, double hi)
            throws IOException {
        try {
            Metric.of(metric == null ? "" : metric);
        } catch (IllegalArgumentException e) {
            throw new IOException(at + ": field metric: " + e.getMessage());
        }
        if (Arrays.stream(PairedRatio.Verdict.values()).noneMatch(v -> v.jsonName().equals(verdict))) {
            throw new IOException(at + ": field verdict '" + verdict + "'; the verdicts: " + Arrays.stream(
                    PairedRatio.Verdict.values()).map(PairedRatio.Verdict::jsonName).collect(Collectors.joining(", ")));
        }
        if (!(ratio > 0 && ratio < Double.POSITIVE_INFINITY && lo >= 0 && lo <= ratio && ratio <= hi)) {
            throw new IOException(at + ": ratio " + ratio + " with interval [" + lo + ", " + hi + "]: a ratio is "
                    + "positive and finite, inside its interval, whose lower end is at least 0");
        }
    }

    public String toJson() throws IOException {
        return ReleaseJson.write(this);
    }
}
