package dev.tflitearena.release.compare;

import dev.tflitearena.release.compare.ReleaseComparison.ArenaChange;
import dev.tflitearena.release.compare.ReleaseComparison.Comparison;
import dev.tflitearena.release.compare.ReleaseComparison.MovedTensor;
import dev.tflitearena.release.compare.ReleaseComparison.NodeComparison;
import dev.tflitearena.release.compare.ReleaseComparison.OpComparison;
import dev.tflitearena.release.compare.ReleaseComparison.Side;
import dev.tflitearena.release.compare.RoundReport.TensorPlacement;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** A comparison as Markdown: what was run, each metric's table, the ops that changed, the tensors that moved. */
public final class ComparisonTable {
    /** Moved tensors listed per model; the JSON has them all. */
    static final int TENSORS_LISTED = 10;

    private ComparisonTable() {
    }

    /** How the models neither side can run are introduced, on the page and in the table. */
    static final String NOT_RUNNABLE = "Not runnable on either side, left out of the rounds (regress passes them "
            + "unless --require-all): ";

    public static String markdown(ReleaseComparison c) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "A: %s. B: %s.%n%n", side(c.a()), side(c.b())));
        md.append(String.format(Locale.ROOT, "%d rounds (%s ...), each side in a fresh JVM per round; %d warm-up "
                        + "samples and the fastest of %d per metric; %s, TFLite's %s threads. Intervals: %.0f%%, "
                        + "%s.%n", c.rounds(), String.join(" ", c.order().subList(0, Math.min(6, c.order().size()))),
                c.warmup(), c.samples(), c.resolver(), c.threads() < 0 ? "default" : String.valueOf(c.threads()),
                c.confidence() * 100, c.method()));
        if (!c.rulesChanged().isEmpty()) {
            md.append("\nPlanner rules that differ: ").append(String.join("; ", c.rulesChanged())).append(".\n");
        }
        for (String metric : c.comparisons().stream().map(Comparison::metric).distinct().toList()) {
            md.append("\n### ").append(metric).append("\n\n| model | A ms | B ms | B/A |\n| --- | ---: | ---: | --- |\n");
            for (Comparison x : c.comparisons()) {
                if (x.metric().equals(metric)) {
                    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", x.model(), millis(x.aMs()),
                            millis(x.bMs()), x.text()));
                }
            }
        }
        List<OpComparison> changed = c.ops().stream().filter(o -> !o.verdict().equals("no_change"))
                .sorted(Comparator.comparingDouble((OpComparison o) -> -Math.abs(Math.log(o.ratio())))).toList();
        if (!c.ops().isEmpty()) {
            md.append(String.format(Locale.ROOT, "%n### ops that changed (%d of %d op types over the models)%n%n",
                    changed.size(), c.ops().size()));
            if (changed.isEmpty()) {
                md.append("None.\n");
            } else {
                md.append("| model | op | A ms | B ms | B/A | nodes that changed most |\n"
                        + "| --- | --- | ---: | ---: | --- | --- |\n");
                for (OpComparison o : changed) {
                    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", o.model(), o.op(),
                            millis(o.aMs()), millis(o.bMs()), o.text(), nodes(o.nodes())));
                }
            }
        }
        md.append("\n### plans\n\n");
        if (c.arenas().isEmpty()) {
            md.append("Every compared model's plan is the same on both sides: the same tensors, arenas and buffers, "
                    + "each tensor at the same offset with the same size and lifetime.\n");
        }
        for (ArenaChange change : c.arenas()) {
            md.append(String.format(Locale.ROOT, "- %s: tensors %d -> %d, rw arena %,d -> %,d, persistent %,d -> %,d, "
                            + "buffers %,d -> %,d and %,d -> %,d; %d tensors moved%n", change.model(),
                    change.a().tensors(), change.b().tensors(), change.a().arenaBytes(), change.b().arenaBytes(),
                    change.a().persistentBytes(), change.b().persistentBytes(), change.a().arenaBufferBytes(),
                    change.b().arenaBufferBytes(), change.a().persistentBufferBytes(),
                    change.b().persistentBufferBytes(), change.moved().size()));
            List<MovedTensor> listed = change.moved().subList(0, Math.min(TENSORS_LISTED, change.moved().size()));
            for (MovedTensor t : listed) {
                md.append(String.format(Locale.ROOT, "  - subgraph %d tensor %d (%s): %s -> %s: %s%n", t.subgraph(),
                        t.tensor(), t.name(), place(t.a()), place(t.b()), t.why()));
            }
            if (listed.size() < change.moved().size()) {
                md.append("  - and ").append(change.moved().size() - listed.size()).append(" more (in the JSON)\n");
            }
        }
        if (!c.notCompared().isEmpty()) {
            md.append("\nNot compared: ").append(String.join("; ", c.notCompared().stream().map(Object::toString)
                    .toList())).append(".\n");
        }
        if (!c.notRunnable().isEmpty()) {
            md.append("\n").append(NOT_RUNNABLE).append(String.join("; ", c.notRunnable().stream()
                    .map(Object::toString).toList())).append(".\n");
        }
        return md.toString();
    }

    private static String side(Side s) {
        return String.format(Locale.ROOT, "%s (TFLite %s, %s, models in %s)", s.label(), s.tfliteLibrary(), s.jar(),
                s.modelsDir());
    }

    private static String nodes(List<NodeComparison> nodes) {
        return String.join("; ", nodes.stream().map(n -> String.format(Locale.ROOT, "node %d%s %s -> %s ms: %s",
                n.node(), n.subgraph() == 0 ? "" : " of subgraph " + n.subgraph(), millis(n.aMs()), millis(n.bMs()),
                n.text())).toList());
    }

    static String place(TensorPlacement p) {
        if (p == null) {
            return "absent";
        }
        return String.format(Locale.ROOT, "%s %s, %,d bytes, nodes %s-%s", p.arena(),
                p.offset() < 0 ? "no memory" : "@" + p.offset(), p.bytes(), node(p.first()), node(p.last()));
    }

    private static String node(int n) {
        return n < 0 || n == Integer.MAX_VALUE ? "none" : String.valueOf(n);
    }

    static String millis(double ms) {
        return ms >= 10 ? String.format(Locale.ROOT, "%.2f", ms) : String.format(Locale.ROOT, "%.4f", ms);
    }
}
