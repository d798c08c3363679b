package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class HtmlReportTest {

    @Test
    void aWellFormedPageWithATableRowPerPlannerAndASectionPerPicture() throws Exception {
        Graph graph = SampleGraphs.chain();
        String svg = SvgRenderer.render(PlanPicture.of(graph, new TflitePlanner().plan(graph)));
        List<HtmlReport.Row> rows = List.of(
                new HtmlReport.Row("tflite", 4072, 4000, 0.018, false, 3, "native order"),
                new HtmlReport.Row("best <fit> & co", 4000, 4000, 0, true, 1250, ""));
        String html = HtmlReport.render("Chain & friends", rows, List.of(svg, svg));
        String withoutNamespaces = html.replace("http://www.w3.org/", "");
        assertFalse(withoutNamespaces.contains("http") || html.contains("<script") || html.contains("src="),
                "self-contained");
        Document doc = SvgRendererTest.parse(html);
        assertEquals("Chain & friends", doc.getElementsByTagNameNS("*", "h1").item(0).getTextContent());
        NodeList bodyRows = ((Element) doc.getElementsByTagNameNS("*", "tbody").item(0))
                .getElementsByTagNameNS("*", "tr");
        assertEquals(2, bodyRows.getLength());
        assertEquals("tflite4 KiB (4,072 B)3.9 KiB (4,000 B)1.8%3 msnative order",
                bodyRows.item(0).getTextContent());
        assertEquals("best <fit> & co3.9 KiB (4,000 B)3.9 KiB (4,000 B)0.0%proven1250 ms",
                bodyRows.item(1).getTextContent());
        assertEquals("best", ((Element) bodyRows.item(1)).getAttribute("class"), "the smallest arena stands out");
        assertEquals(2, doc.getElementsByTagNameNS("*", "section").getLength());
        assertEquals(2, doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength());
    }
}
