package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HtmlReportTest {
    private static final HtmlReport.Provenance PROVENANCE = new HtmlReport.Provenance(
            "2.20.0, planned under 2.20's rules", "BuiltinOpResolverWithoutDefaultDelegates", "2025-03-04");

    private static PlanPicture chain() {
        Graph graph = SampleGraphs.chain();
        return PlanPicture.of(graph, new TflitePlanner().plan(graph));
    }

    private static List<Element> elements(Element parent, String name, String kind) {
        return SvgRendererTest.elements(parent, name, kind);
    }

    private static List<Element> bodyRows(Element table) {
        return elements((Element) table.getElementsByTagNameNS("*", "tbody").item(0), "tr", null);
    }

    @Test
    void aWellFormedPageWithATableRowPerPlannerAndASectionPerPicture() throws Exception {
        List<HtmlReport.Row> rows = List.of(
                new HtmlReport.Row("tflite", 4072, 4000, 0.018, false, 3, "native order"),
                new HtmlReport.Row("best <fit> & co", 4000, 4000, 0, true, 1250, ""));
        String html = HtmlReport.render("Chain & friends", PROVENANCE,
                List.of(new HtmlReport.Section("", rows, List.of(chain(), chain()))));
        String withoutNamespaces = html.replace("http://www.w3.org/", "");
        assertFalse(withoutNamespaces.contains("http") || html.contains("<script") || html.contains("src="),
                "self-contained");
        Document doc = SvgRendererTest.parse(html);
        assertEquals("Chain & friends", doc.getElementsByTagNameNS("*", "h1").item(0).getTextContent());
        assertEquals(0, doc.getElementsByTagNameNS("*", "h2").getLength(), "one section needs no heading");
        List<Element> planners = bodyRows(elements(doc.getDocumentElement(), "table", "planners").get(0));
        assertEquals(2, planners.size());
        assertEquals("tflite4 KiB (4,072 B)3.9 KiB (4,000 B)1.8%3 msnative order", planners.get(0).getTextContent());
        assertEquals("best <fit> & co3.9 KiB (4,000 B)3.9 KiB (4,000 B)0.0%proven1250 ms",
                planners.get(1).getTextContent());
        assertEquals("", planners.get(0).getAttribute("class"));
        assertEquals("best", planners.get(1).getAttribute("class"), "the smallest arena stands out");
        assertEquals(2, doc.getElementsByTagNameNS("*", "section").getLength());
        assertEquals(2, doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength());
    }

    @Test
    void thePageSaysWhereItsFiguresComeFromAndWhatTheLowerBoundAndTheGapAre() throws Exception {
        Document doc = SvgRendererTest.parse(HtmlReport.render("chain", PROVENANCE,
                List.of(new HtmlReport.Section("", List.of(), List.of(chain())))));
        Element root = doc.getDocumentElement();
        assertEquals("TFLite 2.20.0, planned under 2.20's rules; resolver BuiltinOpResolverWithoutDefaultDelegates; "
                + "2025-03-04.", elements(root, "p", "provenance").get(0).getTextContent());
        String explanation = elements(root, "p", "explanation").get(0).getTextContent();
        assertTrue(explanation.startsWith("The lower bound is the most bytes live at any one node"), explanation);
        assertTrue(explanation.contains("The gap is arena / lower bound - 1"), explanation);
        assertTrue(explanation.contains("The peak is the node where the lower bound is met"), explanation);
    }

    @Test
    void theTensorsLiveAtThePeakAreListedWithTheirBytesAndProducer() throws Exception {
        Document doc = SvgRendererTest.parse(HtmlReport.render("chain", PROVENANCE,
                List.of(new HtmlReport.Section("", List.of(), List.of(chain(), chain())))));
        Element root = doc.getDocumentElement();
        assertEquals("Peak of the lower bound: node 2 (OP2), 3.9 KiB (4,000 B) live in 3 buffers.",
                elements(root, "p", "peak").get(0).getTextContent());
        List<Element> tables = elements(root, "table", "peak");
        assertEquals(1, tables.size(), "listed once: every picture of a section shows the same graph");
        List<String> rows = bodyRows(tables.get(0)).stream().map(Element::getTextContent).toList();
        assertEquals(List.of("t12 KiB (2,000 B)nodes 0..2node 0 (OP0)", "t01,000 Bnodes 0..3graph input",
                "t31,000 Bnodes 2..3node 2 (OP2)"), rows);
        assertEquals("tensor", tables.get(0).getElementsByTagNameNS("*", "th").item(0).getTextContent());
    }

    @Test
    void aFusedTensorAtThePeakShowsItsFirstNameAndTheWholeOneOnHover() throws Exception {
        Graph fused = SampleGraphs.chainNamed("model/relu;model/bn;model/conv", "main");
        PlanPicture picture = PlanPicture.of(fused, new TflitePlanner().plan(fused));
        Document doc = SvgRendererTest.parse(HtmlReport.render("fused", PROVENANCE,
                List.of(new HtmlReport.Section("", List.of(), List.of(picture)))));
        Element cell = elements(bodyRows(elements(doc.getDocumentElement(), "table", "peak").get(0)).get(0), "td",
                null).get(0);
        assertEquals("model/relu", cell.getTextContent());
        assertEquals("model/relu;model/bn;model/conv", cell.getAttribute("title"));
    }

    @Test
    void anUnmeasuredTimeSaysSoAndOnlyTheSmallestArenasOfEachSectionAreBold() throws Exception {
        List<HtmlReport.Row> float32 = List.of(
                new HtmlReport.Row("native", 4000, 4000, 0, false, HtmlReport.Row.NOT_MEASURED, ""),
                new HtmlReport.Row("tflite", 4000, 4000, 0, false, 1, ""),
                new HtmlReport.Row("greedy", 4096, 4000, 0.024, false, 2, ""));
        List<HtmlReport.Row> int8 = List.of(
                new HtmlReport.Row("native", 1000, 1000, 0, false, HtmlReport.Row.NOT_MEASURED, ""),
                new HtmlReport.Row("tflite", 1000, 1000, 0, true, 0, ""));
        Document doc = SvgRendererTest.parse(HtmlReport.render("demo", PROVENANCE, List.of(
                new HtmlReport.Section("float32", float32, List.of(chain())),
                new HtmlReport.Section("int8", int8, List.of(chain())))));
        Element root = doc.getDocumentElement();
        assertEquals(List.of("float32", "int8"), elements(root, "h2", null).stream().map(Element::getTextContent)
                .toList());
        List<Element> tables = elements(root, "table", "planners");
        List<Element> first = bodyRows(tables.get(0));
        assertEquals(List.of("best", "best", ""), first.stream().map(r -> r.getAttribute("class")).toList(),
                "4,000 B is the smallest arena of the float32 table, though larger than every int8 one");
        Element time = elements(first.get(0), "td", null).get(5);
        assertEquals("not measured", time.getTextContent());
        assertEquals("1 ms", elements(first.get(1), "td", null).get(5).getTextContent());
        assertEquals("< 1 ms", elements(bodyRows(tables.get(1)).get(1), "td", null).get(5).getTextContent(),
                "measured, but under a millisecond");
        assertEquals(List.of("", ""), bodyRows(tables.get(1)).stream().map(r -> r.getAttribute("class")).toList(),
                "where every plan ties, none is better than another");
    }

    @Test
    void aLedgerIsATableOfFiguresAboveTheSections() throws Exception {
        HtmlReport.Table ledger = new HtmlReport.Table("Ledger", "", List.of("ledger", "float32", "int8"), List.of(
                List.of("naive total", "2,011,040", "502,760"), List.of("  measured", "2,011,040", "502,760")));
        String html = HtmlReport.render("demo", PROVENANCE, ledger,
                List.of(new HtmlReport.Section("float32", List.of(), List.of())));
        Element table = elements(SvgRendererTest.parse(html).getDocumentElement(), "table", "ledger").get(0);
        List<Element> rows = bodyRows(table);
        assertEquals("naive total2,011,040502,760", rows.get(0).getTextContent());
        List<Element> cells = elements(rows.get(1), "td", null);
        assertEquals("label", cells.get(0).getAttribute("class"));
        assertEquals("  measured", cells.get(0).getTextContent(), "indented as in the terminal");
        assertEquals("number", cells.get(1).getAttribute("class"));
        assertTrue(html.indexOf("class=\"ledger\"") < html.indexOf("<h2>float32</h2>"));
    }
}
