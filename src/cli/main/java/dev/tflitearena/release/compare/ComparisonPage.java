package dev.tflitearena.release.compare;

import dev.tflitearena.release.compare.ReleaseComparison.ArenaChange;
import dev.tflitearena.release.compare.ReleaseComparison.Comparison;
import dev.tflitearena.release.compare.ReleaseComparison.OpComparison;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import static dev.tflitearena.plan.render.Xml.escape;

/**
 * A comparison as one HTML page, with no script: per metric, each model's times on both sides and its ratio's
 * interval drawn against no change; the arenas of both sides; the op types, those that changed first.
 */
public final class ComparisonPage {
    private static final int LABEL_WIDTH = 290;
    private static final int PLOT_WIDTH = 420;
    private static final int ROW = 22;
    private static final String STYLE = """
            body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; margin: 24px; max-width: 1100px; }
            h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; }
            table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
            td, th { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; }
            td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
            .slower { color: #b3261e; font-weight: bold; } .faster { color: #1b6e20; font-weight: bold; }
            .no_change { color: #555; }
            p.note, ul.note { font-size: 13px; color: #444; }
            svg text { font-size: 12px; font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; }
            """;

    private ComparisonPage() {
    }

    public static String html(ReleaseComparison c) {
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        h.append("<title>").append(escape(title(c))).append("</title>\n<style>\n").append(STYLE)
                .append("</style>\n</head>\n<body>\n<h1>").append(escape(title(c))).append("</h1>\n");
        h.append("<p class=\"note\">A: ").append(escape(side(c.a()))).append("<br>B: ").append(escape(side(c.b())))
                .append("<br>").append(c.rounds()).append(" rounds interleaved (")
                .append(escape(String.join(" ", c.order().subList(0, Math.min(6, c.order().size()))))).append(" ...), ")
                .append(c.samples()).append(" samples per metric per round; ").append(escape(c.resolver()))
                .append(", TFLite's ").append(c.threads() < 0 ? "default" : String.valueOf(c.threads()))
                .append(" threads.<br>Intervals: ").append(String.format(Locale.ROOT, "%.0f%%", c.confidence() * 100))
                .append(", ").append(escape(c.method())).append(".</p>\n");
        if (!c.rulesChanged().isEmpty()) {
            h.append("<p class=\"note\">Planner rules that differ: ").append(escape(String.join("; ", c.rulesChanged())))
                    .append(".</p>\n");
        }
        for (String metric : c.comparisons().stream().map(Comparison::metric).distinct().toList()) {
            List<Comparison> rows = c.comparisons().stream().filter(x -> x.metric().equals(metric)).toList();
            h.append("<h2>").append(escape(metric)).append(": B/A per model</h2>\n").append(forest(rows));
            h.append("<table><tr><th>model</th><th class=\"n\">A ms</th><th class=\"n\">B ms</th><th>B/A</th></tr>\n");
            for (Comparison x : rows) {
                h.append("<tr><td>").append(escape(x.model())).append("</td><td class=\"n\">")
                        .append(ComparisonTable.millis(x.aMs())).append("</td><td class=\"n\">")
                        .append(ComparisonTable.millis(x.bMs())).append("</td><td class=\"").append(x.verdict())
                        .append("\">").append(escape(x.text())).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("<h2>Arenas</h2>\n").append(arenas(c));
        if (!c.ops().isEmpty()) {
            h.append("<h2>Op types</h2>\n<p class=\"note\">The time of an op type's nodes in one invoke (a "
                    + "control-flow op's includes the subgraphs it runs); those that changed first, then by time.</p>\n");
            h.append("<table><tr><th>model</th><th>op</th><th class=\"n\">A ms</th><th class=\"n\">B ms</th>"
                    + "<th>B/A</th><th>nodes that changed most</th></tr>\n");
            List<OpComparison> ops = c.ops().stream().sorted(Comparator
                    .comparing((OpComparison o) -> o.verdict().equals("no_change"))
                    .thenComparingDouble(o -> -o.aMs())).toList();
            for (OpComparison o : ops) {
                h.append("<tr><td>").append(escape(o.model())).append("</td><td>").append(escape(o.op()))
                        .append("</td><td class=\"n\">").append(ComparisonTable.millis(o.aMs()))
                        .append("</td><td class=\"n\">").append(ComparisonTable.millis(o.bMs())).append("</td><td class=\"")
                        .append(o.verdict()).append("\">").append(escape(o.text())).append("</td><td>");
                o.nodes().forEach(n -> h.append(escape(String.format(Locale.ROOT, "node %d%s: %s", n.node(),
                        n.subgraph() == 0 ? "" : " of subgraph " + n.subgraph(), n.text()))).append("<br>"));
                h.append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        if (!c.notCompared().isEmpty()) {
            h.append("<p class=\"note\">Not compared: ").append(escape(String.join("; ", c.notCompared().stream()
                    .map(Object::toString).toList())))
                    .append(".</p>\n");
        }
        if (!c.notRunnable().isEmpty()) {
            h.append("<p class=\"note\">").append(escape(ComparisonTable.NOT_RUNNABLE + String.join("; ",
                    c.notRunnable().stream().map(Object::toString).toList()))).append(".</p>\n");
        }
        return h.append("</body>\n</html>\n").toString();
    }

    private static String title(ReleaseComparison c) {
        return name(c.a()) + " (A) against " + name(c.b()) + " (B)";
    }

    private static String name(ReleaseComparison.Side s) {
        return s.label().endsWith(".jar") ? s.label() : "TFLite " + s.label();
    }

    private static String side(ReleaseComparison.Side s) {
        return s.label() + ": TFLite " + s.tfliteLibrary() + ", " + s.jar() + ", models in " + s.modelsDir();
    }

    /** Each model's interval as a line and its estimate as a dot, on a log scale centred on no change. */
    private static String forest(List<Comparison> rows) {
        double span = 0.02;
        for (Comparison x : rows) {
            span = Math.max(span, Math.abs(Math.log(x.ratio())));
            if (x.hi() != Double.POSITIVE_INFINITY && x.lo() > 0) {
                span = Math.max(span, Math.max(Math.abs(Math.log(x.lo())), Math.abs(Math.log(x.hi()))));
            }
        }
        span *= 1.1;
        int height = ROW * rows.size() + 30;
        int width = LABEL_WIDTH + PLOT_WIDTH + 20;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">%n", width, height));
        double centre = LABEL_WIDTH + PLOT_WIDTH / 2.0;
        double scale = PLOT_WIDTH / 2.0 / span;
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\" "
                + "stroke-dasharray=\"4 3\"/>%n", centre, centre, height - 22));
        for (double tick : new double[]{-span / 1.1, 0, span / 1.1}) {
            double x = centre + tick * scale;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%+.1f%%</text>%n", x,
                    height - 6, (Math.exp(tick) - 1) * 100));
        }
        for (int i = 0; i < rows.size(); i++) {
            Comparison x = rows.get(i);
            double y = ROW * i + ROW / 2.0 + 2;
            String colour = switch (x.verdict()) {
                case "slower" -> "#b3261e";
                case "faster" -> "#1b6e20";
                default -> "#555";
            };
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LABEL_WIDTH - 8, y + 4, escape(x.model())));
            double lo = x.lo() > 0 ? Math.max(-span, Math.log(x.lo())) : -span;
            double hi = x.hi() != Double.POSITIVE_INFINITY ? Math.min(span, Math.log(x.hi())) : span;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-width=\"3\"/>%n", centre + lo * scale, y, centre + hi * scale, y, colour));
            s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s</title>"
                    + "</circle>%n", centre + Math.log(x.ratio()) * scale, y, colour, escape(x.text())));
        }
        return s.append("</svg>\n").toString();
    }

    /** Both sides' rw arena per model as bars, and the tensors that moved. */
    private static String arenas(ReleaseComparison c) {
        if (c.arenas().isEmpty()) {
            return "<p class=\"note\">Every compared model's plan is the same on both sides: the same tensors, arenas "
                    + "and buffers, each tensor at the same offset with the same size and lifetime.</p>\n";
        }
        StringBuilder h = new StringBuilder("<table><tr><th>model</th><th class=\"n\">rw arena A</th>"
                + "<th class=\"n\">rw arena B</th><th></th><th class=\"n\">persistent A</th><th class=\"n\">persistent B"
                + "</th><th class=\"n\">buffers A</th><th class=\"n\">buffers B</th><th class=\"n\">tensors moved</th>"
                + "</tr>\n");
        long largest = c.arenas().stream().mapToLong(a -> Math.max(a.a().arenaBytes(), a.b().arenaBytes())).max()
                .orElse(1);
        for (ArenaChange a : c.arenas()) {
            h.append("<tr><td>").append(escape(a.model())).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%,d", a.a().arenaBytes())).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%,d", a.b().arenaBytes())).append("</td><td>")
                    .append(bars(a.a().arenaBytes(), a.b().arenaBytes(), largest)).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%,d</td><td class=\"n\">%,d</td><td class=\"n\">%,d + %,d</td>"
                                    + "<td class=\"n\">%,d + %,d", a.a().persistentBytes(), a.b().persistentBytes(),
                            a.a().arenaBufferBytes(), a.a().persistentBufferBytes(), a.b().arenaBufferBytes(),
                            a.b().persistentBufferBytes())).append("</td><td class=\"n\">").append(a.moved().size())
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
        for (ArenaChange a : c.arenas()) {
            if (a.moved().isEmpty()) {
                continue;
            }
            h.append("<p class=\"note\">").append(escape(a.model())).append(": ").append(a.moved().size())
                    .append(" tensors moved").append(a.moved().size() > ComparisonTable.TENSORS_LISTED
                            ? ", the first " + ComparisonTable.TENSORS_LISTED + " (all in comparison.json)" : "")
                    .append("</p>\n<ul class=\"note\">\n");
            a.moved().stream().limit(ComparisonTable.TENSORS_LISTED).forEach(t -> h.append("<li>")
                    .append(escape(String.format(Locale.ROOT, "subgraph %d tensor %d (%s): %s -> %s: %s", t.subgraph(),
                            t.tensor(), t.name(), ComparisonTable.place(t.a()), ComparisonTable.place(t.b()),
                            t.why()))).append("</li>\n"));
            h.append("</ul>\n");
        }
        return h.toString();
    }

    private static String bars(long a, long b, long largest) {
        double width = 160;
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"18\">"
                + "<rect x=\"0\" y=\"1\" width=\"%.1f\" height=\"7\" fill=\"#5b7db1\"/>"
                + "<rect x=\"0\" y=\"10\" width=\"%.1f\" height=\"7\" fill=\"#d08c3a\"/></svg>", width,
                width * a / largest, width * b / largest);
    }
}
