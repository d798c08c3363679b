package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvgRendererTest {

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static List<Element> elements(Document doc, String name, String kind) {
        return elements(doc.getDocumentElement(), name, kind);
    }

    /** The elements named {@code name} under {@code parent}, of the class {@code kind} unless it is null. */
    static List<Element> elements(Element parent, String name, String kind) {
        NodeList all = parent.getElementsByTagNameNS("*", name);
        List<Element> found = new ArrayList<>();
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (kind == null || e.getAttribute("class").equals(kind)) {
                found.add(e);
            }
        }
        return found;
    }

    private static PlanPicture chain() {
        Graph graph = SampleGraphs.chain();
        return PlanPicture.of(graph, new TflitePlanner().plan(graph));
    }

    @Test
    void oneRectPerRwTensorWithMemoryPlusTheBackgroundAndAFramePerPanel() throws Exception {
        Document doc = parse(SvgRenderer.render(chain()));
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        assertEquals(String.valueOf(SvgRenderer.WIDTH), doc.getDocumentElement().getAttribute("width"));
        assertEquals(SampleGraphs.OWNERS, elements(doc, "rect", "buffer").size());
        assertEquals(1, elements(doc, "rect", "alias").size());
        assertEquals(1, elements(doc, "rect", "background").size());
        assertEquals(1, elements(doc, "rect", "frame").size());
        assertEquals(1, elements(doc, "rect", "peak").size());
        Element legend = elements(doc, "g", "legend").get(0);
        assertEquals(SampleGraphs.OWNERS + 1 + 3 + legend.getElementsByTagNameNS("*", "rect").getLength(),
                elements(doc, "rect", null).size(), "nothing else is drawn as a box");
    }

    @Test
    void theLegendNamesEveryKindOfMark() throws Exception {
        Element legend = elements(parse(SvgRenderer.render(chain())), "g", "legend").get(0);
        List<String> entries = new ArrayList<>();
        NodeList texts = legend.getElementsByTagNameNS("*", "text");
        for (int i = 0; i < texts.getLength(); i++) {
            entries.add(texts.item(i).getTextContent());
        }
        assertEquals(List.of("buffer, coloured by its name; hover for details", "in-place alias, on its root",
                "arena top", "lower bound", "peak of the lower bound"), entries);
        List<String> lines = new ArrayList<>();
        NodeList samples = legend.getElementsByTagNameNS("*", "line");
        for (int i = 0; i < samples.getLength(); i++) {
            lines.add(((Element) samples.item(i)).getAttribute("stroke-dasharray"));
        }
        assertEquals(List.of("", "7 5"), lines, "the arena top solid, the lower bound dashed, as in the plot");
        double end = 0;
        for (int i = 0; i < texts.getLength(); i++) {
            Element text = (Element) texts.item(i);
            double x = Double.parseDouble(text.getAttribute("x"));
            assertTrue(x > end, "entries do not overlap: " + entries.get(i));
            end = x + text.getTextContent().length() * 6.2;
        }
        assertTrue(end < SvgRenderer.WIDTH, "the legend fits the width: " + end);
    }

    @Test
    void thePeakIsABandOverItsNodeLabelledAboveTheArenaTop() throws Exception {
        Document doc = parse(SvgRenderer.render(chain()));
        Element band = elements(doc, "rect", "peak").get(0);
        Element t3 = boxTitled(doc, "t3\n");
        Element t4 = boxTitled(doc, "t4\n");
        assertEquals(t3.getAttribute("x"), band.getAttribute("x"), "node 2, where t3 starts");
        assertEquals(t4.getAttribute("width"), band.getAttribute("width"), "one node wide, as t4 lives");
        Element frame = elements(doc, "rect", "frame").get(0);
        assertEquals(bottom(frame), bottom(band), 1e-9, "down to the node axis");
        Element label = elements(doc, "text", "peak-label").get(0);
        assertEquals("peak: node 2 (OP2), 3.9 KiB live", label.getTextContent());
        double labelBaseline = Double.parseDouble(label.getAttribute("y"));
        assertTrue(labelBaseline > Double.parseDouble(frame.getAttribute("y")), "inside the frame");
        assertTrue(labelBaseline < Double.parseDouble(band.getAttribute("y")), "above the band, not crossed by it");
        double top = Double.parseDouble(elements(doc, "line", "arena-top").get(0).getAttribute("y1"));
        assertTrue(Double.parseDouble(band.getAttribute("y")) < top, "the band crosses the arena top");
    }

    @Test
    void aPeakAtTheEdgeKeepsItsLabelInsideTheFrame() throws Exception {
        BufferSet set = new BufferSet(List.of(new BufferSet.Buffer(0, 500, 0, 0), new BufferSet.Buffer(1, 10, 1, 99)),
                100, 1);
        Document doc = parse(SvgRenderer.render(PlanPicture.of("edge", set, new long[] {0, 0})));
        Element label = elements(doc, "text", "peak-label").get(0);
        Element frame = elements(doc, "rect", "frame").get(0);
        double half = label.getTextContent().length() * 7 / 2.0;
        assertTrue(Double.parseDouble(label.getAttribute("x")) - half >= Double.parseDouble(frame.getAttribute("x")),
                label.getAttribute("x"));
    }

    private static double bottom(Element rect) {
        return Double.parseDouble(rect.getAttribute("y")) + Double.parseDouble(rect.getAttribute("height"));
    }

    private static Element boxTitled(Document doc, String tooltipStart) {
        return elements(doc, "rect", "buffer").stream()
                .filter(r -> r.getElementsByTagNameNS("*", "title").item(0).getTextContent().startsWith(tooltipStart))
                .findFirst().orElseThrow();
    }

    @Test
    void eachBoxsTooltipGivesNameBytesAndInterval() throws Exception {
        Document doc = parse(SvgRenderer.render(chain()));
        List<String> tooltips = new ArrayList<>();
        for (Element rect : elements(doc, "rect", "buffer")) {
            tooltips.add(rect.getElementsByTagNameNS("*", "title").item(0).getTextContent());
        }
        assertTrue(tooltips.contains("t1\n2 KiB (2,000 B)\noffset 1,024 B to 3,024 B\nnodes 0..2"),
                tooltips.toString());
        assertTrue(tooltips.contains("t5\n512 B\noffset 3,072 B to 3,584 B\nnode 0"), tooltips.toString());
        String alias = elements(doc, "rect", "alias").get(0).getTextContent();
        assertEquals("t2\n2 KiB (2,000 B)\noffset 1,024 B to 3,024 B\nnodes 1..2\nin place on t1", alias);
    }

    @Test
    void arenaTopAndLowerBoundAreLabelledLines() throws Exception {
        String svg = SvgRenderer.render(chain());
        Document doc = parse(svg);
        Element top = elements(doc, "line", "arena-top").get(0);
        Element bound = elements(doc, "line", "lower-bound").get(0);
        assertEquals(top.getAttribute("y1"), top.getAttribute("y2"));
        assertTrue(Double.parseDouble(top.getAttribute("y1")) < Double.parseDouble(bound.getAttribute("y1")),
                "the arena top (4,072 B) is above the lower bound (4,000 B)");
        assertTrue(svg.contains(">arena top 4 KiB</text>"), svg);
        assertTrue(svg.contains(">lower bound 3.9 KiB</text>"), svg);
    }

    @Test
    void labelsAreEscaped() throws Exception {
        Graph renamed = SampleGraphs.chainNamed("a<b>&\"c'", "<main>");
        PlanPicture picture = PlanPicture.of(renamed, new TflitePlanner().plan(renamed));
        Document doc = parse(SvgRenderer.render(new PlanPicture("x & y", picture.panels())));
        assertTrue(doc.getDocumentElement().getTextContent().contains("a<b>&\"c'\n2 KiB (2,000 B)"));
        assertTrue(doc.getDocumentElement().getTextContent().contains("in place on a<b>&\"c'"));
        assertTrue(doc.getDocumentElement().getTextContent().contains("subgraph 0 (<main>)"));
    }

    @Test
    void aLargePlanKeepsEveryBoxAtLeastOnePixelWideInsideTheWidth() throws Exception {
        Random random = new Random(7);
        List<BufferSet.Buffer> buffers = new ArrayList<>();
        long[] offsets = new long[800];
        for (int i = 0; i < offsets.length; i++) {
            int first = random.nextInt(300);
            buffers.add(new BufferSet.Buffer(i, 64 + random.nextInt(100_000), first,
                    Math.min(299, first + random.nextInt(4))));
            offsets[i] = 64L * random.nextInt(200_000);
        }
        Document doc = parse(SvgRenderer.render(PlanPicture.of("large", new BufferSet(buffers, 300, 64), offsets)));
        List<Element> rects = elements(doc, "rect", "buffer");
        assertEquals(800, rects.size());
        for (Element rect : rects) {
            double x = Double.parseDouble(rect.getAttribute("x"));
            double width = Double.parseDouble(rect.getAttribute("width"));
            assertTrue(width >= 1 && Double.parseDouble(rect.getAttribute("height")) >= 1);
            assertTrue(x >= 0 && x + width <= SvgRenderer.WIDTH);
        }
    }

    @Test
    void coloursFollowTheLabelNotThePosition() {
        BufferSet one = new BufferSet(List.of(new BufferSet.Buffer(5, 64, 0, 0)), 1, 1);
        BufferSet two = new BufferSet(List.of(new BufferSet.Buffer(3, 64, 0, 0), new BufferSet.Buffer(5, 64, 0, 0)),
                1, 1);
        String alone = SvgRenderer.render(PlanPicture.of("a", one, new long[] {0}));
        String shifted = SvgRenderer.render(PlanPicture.of("b", two, new long[] {0, 64}));
        assertEquals(fill(alone, "5\n"), fill(shifted, "5\n"));
    }

    private static String fill(String svg, String tooltipStart) {
        int title = svg.indexOf("<title>" + tooltipStart);
        int fill = svg.lastIndexOf("fill=\"", title);
        return svg.substring(fill, svg.indexOf('"', fill + 6));
    }
}
