package dev.tflitearena.release.compare;

import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.release.compare.ReleaseComparison.ArenaChange;
import dev.tflitearena.release.compare.ReleaseComparison.Comparison;
import dev.tflitearena.release.compare.ReleaseComparison.NodeComparison;
import dev.tflitearena.release.compare.ReleaseComparison.OpComparison;
import dev.tflitearena.release.compare.ReleaseComparison.Side;
import dev.tflitearena.release.compare.RoundReport.ModelRound;
import dev.tflitearena.release.compare.RoundReport.NodeTime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns the rounds of both sides into a {@link ReleaseComparison}. Each metric's intervals over the models are
 * one family, as are one model's op types, and each family's intervals hold together at the confidence asked
 * (Bonferroni: each interval at 1 - (1 - confidence) / its family's size). Twelve models' separate 95% intervals
 * would flag a change that is not there in every other comparison of a release against itself; simultaneous ones
 * do so in at most one in twenty.
 */
public final class InterleavedAnalysis {
    /** The nodes listed for an op type that changed: those whose time changed most. */
    static final int NODES_PER_OP = 5;
    static final String METHOD = "per round, ln(B/A) of each side's fastest sample; the Hodges-Lehmann "
            + "estimate of the rounds' log ratios and the exact Wilcoxon signed-rank interval (paired rounds); "
            + "the intervals of one metric over the models, and of one model's op types, are simultaneous "
            + "(Bonferroni)";

    private InterleavedAnalysis() {
    }

    /** The confidence of each interval in a family of {@code size} that holds together at {@code confidence}. */
    public static double each(double confidence, int size) {
        return 1 - (1 - confidence) / Math.max(size, 1);
    }

    /**
     * @param aRounds     side A's rounds in the order they ran, each of the same models; {@code bRounds} side B's
     * @param notRunnable the models neither side could run, left out of the rounds
     */
    public static ReleaseComparison compare(Side a, Side b, List<RoundReport> aRounds, List<RoundReport> bRounds,
                                            List<String> order, double confidence,
                                            List<ReleaseComparison.NotCompared> notRunnable) {
        if (aRounds.size() != bRounds.size() || aRounds.isEmpty()) {
            throw new IllegalArgumentException("need the same rounds on both sides, got " + aRounds.size()
                    + " and " + bRounds.size());
        }
        List<ReleaseComparison.NotCompared> notCompared = new ArrayList<>();
        List<String> models = new ArrayList<>();
        for (ModelRound m : aRounds.get(0).models()) {
            String why = whyNot(m.model(), aRounds, bRounds);
            if (why == null) {
                models.add(m.model());
            } else {
                notCompared.add(new ReleaseComparison.NotCompared(m.model(), why));
            }
        }
        for (ModelRound m : bRounds.get(0).models()) {
            if (aRounds.get(0).model(m.model()).isEmpty()) {
                notCompared.add(new ReleaseComparison.NotCompared(m.model(), "only side B has it"));
            }
        }
        List<Comparison> comparisons = new ArrayList<>();
        for (Metric metric : List.of(Metric.INVOKE, Metric.NATIVE_SETUP, Metric.JAVA_PLAN)) {
            List<String> timed = models.stream().filter(m -> timed(m, aRounds, r -> r.time(metric))
                    && timed(m, bRounds, r -> r.time(metric))).toList();
            double each = each(confidence, timed.size());
            for (String model : timed) {
                double[] ta = times(model, aRounds, r -> r.time(metric));
                double[] tb = times(model, bRounds, r -> r.time(metric));
                comparisons.add(Comparison.of(model, metric.jsonName(), PairedRatio.of(ta, tb, each),
                        SampleTime.median(ta), SampleTime.median(tb)));
            }
        }
        List<OpComparison> ops = new ArrayList<>();
        for (String model : models) {
            ops.addAll(ops(model, aRounds, bRounds, confidence));
        }
        TfliteRelease ra = TfliteRelease.of(aRounds.get(0).tfliteRelease());
        TfliteRelease rb = TfliteRelease.of(bRounds.get(0).tfliteRelease());
        List<ArenaChange> arenas = new ArrayList<>();
        for (String model : models) {
            RoundReport.Plans pa = plans(model, aRounds);
            RoundReport.Plans pb = plans(model, bRounds);
            if (pa != null && pb != null) {
                ArenaChange change = TensorMoves.of(model, pa, pb, ra, rb);
                if (change != null) {
                    arenas.add(change);
                }
            }
        }
        RoundReport first = aRounds.get(0);
        return new ReleaseComparison(ReleaseComparison.FORMAT, ReleaseComparison.VERSION, a, b, METHOD, confidence,
                aRounds.size(), first.warmup(), first.samples(), order, first.resolver(), first.threads(),
                TensorMoves.rulesChanged(ra, rb), comparisons, ops, arenas, notCompared, notRunnable);
    }

    /** Why a model cannot be compared, or null when every round of both sides measured it. */
    private static String whyNot(String model, List<RoundReport> aRounds, List<RoundReport> bRounds) {
        for (List<RoundReport> side : List.of(aRounds, bRounds)) {
            String label = side == aRounds ? "A" : "B";
            for (int r = 0; r < side.size(); r++) {
                ModelRound m = side.get(r).model(model).orElse(null);
                if (m == null) {
                    return "side " + label + " has no such model in round " + (r + 1);
                }
                if (!m.ok()) {
                    return "side " + label + " cannot run it: " + m.error();
                }
            }
        }
        return null;
    }

    /** The plans of a model from the round that read them, or null when none did. */
    private static RoundReport.Plans plans(String model, List<RoundReport> rounds) {
        return rounds.stream().map(r -> r.model(model).orElseThrow().plans()).filter(p -> p != null).findFirst()
                .orElse(null);
    }

    private static boolean timed(String model, List<RoundReport> rounds, Function<ModelRound, Double> time) {
        return rounds.stream().allMatch(r -> time.apply(r.model(model).orElseThrow()) != null);
    }

    private static double[] times(String model, List<RoundReport> rounds, Function<ModelRound, Double> time) {
        return rounds.stream().mapToDouble(r -> time.apply(r.model(model).orElseThrow())).toArray();
    }

    private static List<OpComparison> ops(String model, List<RoundReport> aRounds, List<RoundReport> bRounds,
                                          double confidence) {
        Set<String> types = new LinkedHashSet<>(aRounds.get(0).model(model).orElseThrow().opsMs().keySet());
        types.retainAll(bRounds.get(0).model(model).orElseThrow().opsMs().keySet());
        List<String> timed = types.stream().filter(op -> timed(model, aRounds, r -> r.opsMs().get(op))
                && timed(model, bRounds, r -> r.opsMs().get(op))).toList();
        double each = each(confidence, timed.size());
        List<OpComparison> ops = new ArrayList<>();
        for (String op : timed) {
            double[] ta = times(model, aRounds, r -> r.opsMs().get(op));
            double[] tb = times(model, bRounds, r -> r.opsMs().get(op));
            if (!positive(ta) || !positive(tb)) {
                continue;
            }
            PairedRatio ratio = PairedRatio.of(ta, tb, each);
            List<NodeComparison> nodes = ratio.verdict() == PairedRatio.Verdict.NO_CHANGE ? List.of()
                    : nodes(model, op, aRounds, bRounds, confidence);
            ops.add(new OpComparison(model, op, ratio.ratio(), ratio.lo(), ratio.hi(), ratio.verdict().jsonName(),
                    SampleTime.median(ta), SampleTime.median(tb), ratio.toString(), nodes));
        }
        return ops;
    }

    /** The nodes of an op type whose median time changed most, each with its interval. */
    private static List<NodeComparison> nodes(String model, String op, List<RoundReport> aRounds,
                                              List<RoundReport> bRounds, double confidence) {
        record Candidate(NodeTime node, double[] a, double[] b, double change) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (NodeTime node : aRounds.get(0).model(model).orElseThrow().nodes()) {
            if (!node.op().equals(op)) {
                continue;
            }
            Function<ModelRound, Double> time = r -> r.nodes().stream()
                    .filter(n -> n.subgraph() == node.subgraph() && n.node() == node.node() && n.op().equals(op))
                    .findFirst().map(NodeTime::ms).orElse(null);
            if (timed(model, aRounds, time) && timed(model, bRounds, time)) {
                double[] ta = times(model, aRounds, time);
                double[] tb = times(model, bRounds, time);
                if (positive(ta) && positive(tb)) {
                    candidates.add(new Candidate(node, ta, tb, SampleTime.median(tb) - SampleTime.median(ta)));
                }
            }
        }
        candidates.sort(Comparator.comparingDouble((Candidate c) -> -Math.abs(c.change())));
        List<Candidate> top = candidates.subList(0, Math.min(NODES_PER_OP, candidates.size()));
        double each = each(confidence, top.size());
        return top.stream().map(c -> {
            PairedRatio ratio = PairedRatio.of(c.a(), c.b(), each);
            return new NodeComparison(c.node().subgraph(), c.node().node(), op, ratio.ratio(), ratio.lo(),
                    ratio.hi(), ratio.verdict().jsonName(), SampleTime.median(c.a()), SampleTime.median(c.b()),
                    ratio.toString());
        }).toList();
    }

    private static boolean positive(double[] times) {
        for (double t : times) {
            if (!(t > 0)) {
                return false;
            }
        }
        return true;
    }
}
