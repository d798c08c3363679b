package dev.tflitearena.plan.render;

import dev.tflitearena.plan.render.PlanPicture.Live;
import dev.tflitearena.plan.render.PlanPicture.Panel;
import dev.tflitearena.plan.render.PlanPicture.Peak;

import java.util.List;

/**
 * A self-contained page comparing planners: where the figures come from, what the lower bound and the gap
 * are, an optional ledger, then per section a table of the planners' arenas, the tensors live at the peak of
 * the lower bound, and the pictures. Inline CSS, no script, no external resource, so the file can be mailed or
 * archived as it is. The markup is also well-formed XML (XHTML-compatible), which lets tests and tools parse it.
 */
public final class HtmlReport {

    /**
     * One planner's result. {@code gap} is arena / lower bound - 1 as a fraction; {@code millis} is the
     * planning time in whole milliseconds (0 shows as under 1 ms), or {@link #NOT_MEASURED}; {@code note} is
     * free text, empty when there is nothing to say.
     */
    public record Row(String name, long arenaBytes, long lowerBoundBytes, double gap, boolean optimalProven,
                      long millis, String note) {
        /** The time of a plan nobody timed, such as the native one, made inside {@code AllocateTensors()}. */
        public static final long NOT_MEASURED = -1;
    }

    /**
     * Where the figures come from, as the command that made them says it: the TFLite release (the library's
     * and the rules planned under), the op resolver the interpreter was built with, and the date.
     */
    public record Provenance(String tflite, String resolver, String date) {
    }

    /**
     * A plain table under its heading, such as the demo's ledger: the first column names a row, the others hold
     * figures. {@code introduction}, a paragraph above it, says what the figures are of; empty for none.
     */
    public record Table(String heading, String introduction, List<String> header, List<List<String>> rows) {
        public Table {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
        }
    }

    /**
     * The planners on one graph and their pictures, which all show that graph: the peak is listed from the
     * first. {@code heading} is empty when the page has a single section.
     */
    public record Section(String heading, List<Row> planners, List<PlanPicture> pictures) {
        public Section {
            planners = List.copyOf(planners);
            pictures = List.copyOf(pictures);
        }
    }

    private static final String STYLE = """
            body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; margin: 24px;
                   max-width: 1240px; }
            h1 { font-size: 22px; margin: 0 0 8px; }
            h2 { font-size: 18px; margin: 28px 0 12px; }
            h3 { font-size: 15px; margin: 16px 0 8px; }
            p { font-size: 14px; line-height: 1.45; margin: 0 0 12px; max-width: 1000px; }
            p.provenance { color: #444; }
            table { border-collapse: collapse; margin-bottom: 20px; font-size: 14px; }
            th, td { padding: 6px 14px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
            th { background: #f0f0f0; border-bottom: 2px solid #bbb; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            td.label { white-space: pre; }
            table.peak td:first-child { max-width: 560px; overflow-wrap: anywhere; }
            td.unmeasured { color: #777; font-style: italic; }
            tr.best td { font-weight: bold; }
            section { margin: 0 0 28px; border: 1px solid #ddd; }
            svg { display: block; max-width: 100%; height: auto; }
            """;

    private static final String EXPLANATION = "The lower bound is the most bytes live at any one node (a step, "
            + "for a buffer set) under the rules the line above names. Under TFLite's, graph inputs and outputs are "
            + "kept to the end (inputs released after their last consumer where the line above says so), "
            + "temporaries live at their node, an in-place alias is counted once with its root; under TFLM's, a "
            + "tensor lives from the operator that writes it to the last that uses it, on one timeline for every "
            + "subgraph, and none shares another's memory. No placement can use a smaller arena. The "
            + "gap is arena / lower bound - 1: how much more than that a plan uses, 0% when it reaches the bound. "
            + "The peak is the node where the lower bound is met; the tensors live there are listed under each "
            + "table, and every picture marks it with a black frame.";

    private HtmlReport() {
    }

    /** A page without a ledger. */
    public static String render(String title, Provenance provenance, List<Section> sections) {
        return render(title, provenance, null, sections);
    }

    /** {@code table}, shown above the planners, may be null. */
    public static String render(String title, Provenance provenance, Table table, List<Section> sections) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                .append("<meta charset=\"utf-8\"/>\n<title>").append(Xml.escape(title)).append("</title>\n")
                .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n<h1>")
                .append(Xml.escape(title)).append("</h1>\n");
        html.append("<p class=\"provenance\">TFLite ").append(Xml.escape(provenance.tflite()))
                .append("; resolver ").append(Xml.escape(provenance.resolver())).append("; ")
                .append(Xml.escape(provenance.date())).append(".</p>\n");
        html.append("<p class=\"explanation\">").append(Xml.escape(EXPLANATION)).append("</p>\n");
        if (table != null) {
            html.append("<h2>").append(Xml.escape(table.heading())).append("</h2>\n");
            if (!table.introduction().isEmpty()) {
                html.append("<p class=\"introduction\">").append(Xml.escape(table.introduction())).append("</p>\n");
            }
            table(html, table);
        }
        int picture = 0;
        for (Section section : sections) {
            if (!section.heading().isEmpty()) {
                html.append("<h2>").append(Xml.escape(section.heading())).append("</h2>\n");
            }
            planners(html, section.planners());
            if (!section.pictures().isEmpty()) {
                List<Panel> panels = section.pictures().get(0).panels();
                for (Panel panel : panels) {
                    peak(html, panels.size() > 1 ? panel.title() : "", panel.peak());
                }
            }
            for (PlanPicture p : section.pictures()) {
                html.append("<section id=\"picture-").append(++picture).append("\">\n")
                        .append(SvgRenderer.render(p)).append("</section>\n");
            }
        }
        return html.append("</body>\n</html>\n").toString();
    }

    /**
     * The rows with the smallest arena are in bold, unless every row has it: then none is better than
     * another.
     */
    private static void planners(StringBuilder html, List<Row> planners) {
        long best = planners.stream().mapToLong(Row::arenaBytes).min().orElse(-1);
        boolean allBest = planners.stream().allMatch(row -> row.arenaBytes() == best);
        html.append("<table class=\"planners\">\n<thead><tr><th>planner</th><th>arena</th><th>lower bound</th>")
                .append("<th>gap</th><th>optimal</th><th>time</th><th>note</th></tr></thead>\n<tbody>\n");
        for (Row row : planners) {
            html.append(row.arenaBytes() == best && !allBest ? "<tr class=\"best\">" : "<tr>")
                    .append("<td>").append(Xml.escape(row.name())).append("</td>")
                    .append(number(Numbers.size(row.arenaBytes())))
                    .append(number(Numbers.size(row.lowerBoundBytes())))
                    .append(number(Numbers.percent(row.gap())))
                    .append("<td>").append(row.optimalProven() ? "proven" : "").append("</td>")
                    .append(row.millis() == Row.NOT_MEASURED ? "<td class=\"number unmeasured\">not measured</td>"
                            : number(row.millis() == 0 ? "< 1 ms" : row.millis() + " ms"))
                    .append("<td>").append(Xml.escape(row.note())).append("</td></tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    /**
     * The buffers live at the peak, largest first, with what writes them when that is known. A fused tensor
     * shows its first name, the whole one on hover.
     */
    private static void peak(StringBuilder html, String panelTitle, Peak peak) {
        if (peak.live().isEmpty()) {
            return;
        }
        if (!panelTitle.isEmpty()) {
            html.append("<h3>").append(Xml.escape(panelTitle)).append("</h3>\n");
        }
        html.append("<p class=\"peak\">Peak of the lower bound: ").append(Xml.escape(peak.where())).append(", ")
                .append(Xml.escape(Numbers.size(peak.bytes()))).append(" live in ")
                .append(Numbers.count(peak.live().size(), "buffer")).append(".</p>\n");
        boolean producers = peak.live().stream().anyMatch(l -> !l.producer().isEmpty());
        html.append("<table class=\"peak\">\n<thead><tr><th>").append(producers ? "tensor" : "buffer")
                .append("</th><th>bytes</th><th>live</th>")
                .append(producers ? "<th>written by</th>" : "").append("</tr></thead>\n<tbody>\n");
        for (Live live : peak.live()) {
            String name = PlanPicture.firstName(live.label());
            html.append(name.equals(live.label()) ? "<tr><td>" : "<tr><td title=\"" + Xml.escape(live.label()) + "\">")
                    .append(Xml.escape(name)).append("</td>")
                    .append(number(Numbers.size(live.bytes())))
                    .append("<td>").append(live.interval()).append("</td>")
                    .append(producers ? "<td>" + Xml.escape(live.producer()) + "</td>" : "").append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    private static void table(StringBuilder html, Table table) {
        html.append("<table class=\"ledger\">\n<thead><tr>");
        for (String cell : table.header()) {
            html.append("<th>").append(Xml.escape(cell)).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                html.append(i == 0 ? "<td class=\"label\">" + Xml.escape(row.get(i)) + "</td>" : number(row.get(i)));
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    private static String number(String text) {
        return "<td class=\"number\">" + Xml.escape(text) + "</td>";
    }
}
