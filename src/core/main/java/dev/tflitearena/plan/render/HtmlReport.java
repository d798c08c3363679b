package dev.tflitearena.plan.render;

import java.util.List;

/**
 * A self-contained page comparing planners: a table of their arenas, then the pictures inline, one section
 * each. Inline CSS, no script, no external resource, so the file can be mailed or archived as it is. The
 * markup is also well-formed XML (XHTML-compatible), which lets tests and tools parse it.
 */
public final class HtmlReport {

    /**
     * One planner's result. {@code gap} is arena / lower bound - 1 as a fraction; {@code note} is free text,
     * empty when there is nothing to say.
     */
    public record Row(String name, long arenaBytes, long lowerBoundBytes, double gap, boolean optimalProven,
                      long millis, String note) {
    }

    private static final String STYLE = """
            body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; margin: 24px;
                   max-width: 1240px; }
            h1 { font-size: 22px; margin: 0 0 16px; }
            table { border-collapse: collapse; margin-bottom: 28px; font-size: 14px; }
            th, td { padding: 6px 14px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
            th { background: #f0f0f0; border-bottom: 2px solid #bbb; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            tr.best td { font-weight: bold; }
            section { margin: 0 0 28px; border: 1px solid #ddd; }
            svg { display: block; max-width: 100%; height: auto; }
            """;

    private HtmlReport() {
    }

    /** The row with the smallest arena is in bold; {@code svgs} are {@link SvgRenderer} output, placed as is. */
    public static String render(String title, List<Row> planners, List<String> svgs) {
        long best = planners.stream().mapToLong(Row::arenaBytes).min().orElse(-1);
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                .append("<meta charset=\"utf-8\"/>\n<title>").append(Xml.escape(title)).append("</title>\n")
                .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n<h1>")
                .append(Xml.escape(title)).append("</h1>\n<table>\n<thead><tr><th>planner</th><th>arena</th>")
                .append("<th>lower bound</th><th>gap</th><th>optimal</th><th>time</th><th>note</th></tr></thead>\n")
                .append("<tbody>\n");
        for (Row row : planners) {
            html.append(row.arenaBytes() == best ? "<tr class=\"best\">" : "<tr>")
                    .append("<td>").append(Xml.escape(row.name())).append("</td>")
                    .append(number(Numbers.size(row.arenaBytes())))
                    .append(number(Numbers.size(row.lowerBoundBytes())))
                    .append(number(Numbers.percent(row.gap())))
                    .append("<td>").append(row.optimalProven() ? "proven" : "").append("</td>")
                    .append(number(row.millis() + " ms"))
                    .append("<td>").append(Xml.escape(row.note())).append("</td></tr>\n");
        }
        html.append("</tbody>\n</table>\n");
        for (int i = 0; i < svgs.size(); i++) {
            html.append("<section id=\"picture-").append(i + 1).append("\">\n").append(svgs.get(i))
                    .append("</section>\n");
        }
        return html.append("</body>\n</html>\n").toString();
    }

    private static String number(String text) {
        return "<td class=\"number\">" + Xml.escape(text) + "</td>";
    }
}
