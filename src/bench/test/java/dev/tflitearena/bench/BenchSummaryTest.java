package dev.tflitearena.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The summary of a small JMH JSON sample: two forks, an outlier, XNNPACK off and on, one unpaired result. */
class BenchSummaryTest {
    private static final String MODEL = "face_detection_short_range.tflite";

    private static BenchSummary sample() throws IOException, URISyntaxException {
        return BenchSummary.read(Path.of(BenchSummaryTest.class.getResource("jmh-sample.json").toURI()));
    }

    private static BenchSummary.Row row(BenchSummary summary, String benchmark, String variant) {
        return summary.rows().stream().filter(r -> r.benchmark().equals(benchmark) && r.variant().equals(variant))
                .findFirst().orElseThrow();
    }

    @Test
    void pairsEachJavaResultWithTheNativeOneOfTheSameParameters() throws Exception {
        BenchSummary summary = sample();
        assertEquals(List.of("invoke", "invoke", "planning", "planning"),
                summary.rows().stream().map(BenchSummary.Row::benchmark).toList());
        assertTrue(summary.rows().stream().allMatch(r -> r.model().equals(MODEL)));
        assertEquals(1, summary.unpaired(), "the set-up result has no native result in the sample");

        BenchSummary.Row xnnpack = row(summary, "invoke", "planner=tflite, xnnpack=true");
        assertEquals("nativePlanned", xnnpack.nativeMethod());
        assertEquals("javaPlanned", xnnpack.javaMethod());
        assertEquals(1005.0, xnnpack.nativeMedian());
        assertEquals(995.0, xnnpack.javaMedian());
        assertEquals(995.0 / 1005.0, xnnpack.ratio().ratio(), 1e-12);
        assertEquals(5050.0, row(summary, "invoke", "planner=tflite, xnnpack=false").nativeMedian());
    }

    @Test
    void takesMediansOverEveryForksIterationsSoAnOutlierDoesNotCount() throws Exception {
        BenchSummary.Row tflite = row(sample(), "planning", "planner=tflite");
        assertEquals("nativeArenaPlanner", tflite.nativeMethod());
        assertEquals(30.5, tflite.nativeMedian());
        assertEquals(61.5, tflite.javaMedian());
        assertEquals(6, tflite.nativeIterations());
        assertEquals(61.5 / 30.5, tflite.ratio().ratio(), 1e-12);
        assertTrue(tflite.ratio().low() <= tflite.ratio().ratio() && tflite.ratio().ratio() <= tflite.ratio().high());
        assertTrue(tflite.ratio().low() < tflite.ratio().high());
        assertEquals(tflite.ratio(), row(sample(), "planning", "planner=tflite").ratio(), "the interval is reproducible");
    }

    @Test
    void writesATablePerModelAndTheSameRowsAsJson() throws Exception {
        BenchSummary summary = sample();
        String markdown = summary.toMarkdown();
        assertTrue(markdown.contains("## " + MODEL + "\n"), markdown);
        assertTrue(markdown.contains("| planning | planner=tflite | 30.50 us/op | 61.50 us/op | 2.016 | "), markdown);
        assertTrue(markdown.contains("- planning: `nativeArenaPlanner` against `javaPlanner`"), markdown);
        assertTrue(markdown.contains("1 Java result(s) had no native result"), markdown);

        var json = summary.toJson();
        assertEquals(4, json.get("rows").size());
        assertEquals(1, json.get("unpaired").asInt());
        var first = json.get("rows").get(0);
        assertEquals(MODEL, first.get("model").asText());
        assertEquals(5050.0, first.get("native_median").asDouble());
        assertTrue(first.get("ratio_low").asDouble() <= first.get("ratio").asDouble());
    }

    @Test
    void comparesEachThroughputVariantWithTheRawInterpreterOfItsXnnpackSettingAndShowsDjlsCheck() throws Exception {
        List<DjlCheck> djl = List.of(new DjlCheck(MODEL, "DJL 0.27.0, TFLite 2.6.2", 0, null),
                new DjlCheck("other.tflite", null, Double.NaN, "java.lang.UnsatisfiedLinkError: no library"));
        BenchSummary summary = BenchSummary.read(Path.of(BenchSummaryTest.class
                .getResource("jmh-throughput-sample.json").toURI()), djl);
        assertTrue(summary.rows().isEmpty(), "throughput results are not Java against native");
        assertEquals(List.of("nativeInterpreter/false", "pool2/false", "djl/false", "nativeInterpreter/true",
                "pool1/true"), summary.throughput().stream().map(t -> t.method() + "/" + t.xnnpack()).toList());

        BenchSummary.Throughput raw = summary.throughput().get(0);
        assertEquals(100.0, raw.median());
        assertEquals(null, raw.toRaw(), "the raw interpreter is the reference");
        BenchSummary.Throughput pool2 = summary.throughput().get(1);
        assertEquals(2, pool2.callers());
        assertEquals(185.0 / 100.0, pool2.toRaw().ratio(), 1e-12);
        assertEquals(91.0 / 100.0, summary.throughput().get(2).toRaw().ratio(), 1e-12,
                "DJL, without XNNPACK, against the raw interpreter without it");
        assertEquals(392.5 / 405.0, summary.throughput().get(4).toRaw().ratio(), 1e-12);

        String markdown = summary.toMarkdown();
        assertTrue(!markdown.contains("# Java against native"), markdown);
        assertTrue(markdown.contains("| pool2 | 2 | off | 185.0 ops/s | 1.850 | "), markdown);
        assertTrue(markdown.contains("| nativeInterpreter | 1 | on | 405.0 ops/s | reference |  | 2 |"), markdown);
        assertTrue(markdown.contains("- " + MODEL + ": DJL 0.27.0, TFLite 2.6.2; outputs agree"), markdown);
        assertTrue(markdown.contains("- other.tflite: not timed: java.lang.UnsatisfiedLinkError: no library"),
                markdown);

        var json = summary.toJson();
        assertEquals(5, json.get("throughput").size());
        assertTrue(json.get("throughput").get(0).path("ratio_to_raw").isMissingNode());
        assertEquals("java.lang.UnsatisfiedLinkError: no library", json.get("djl").get(1).get("error").asText());
    }

    @Test
    void namesTheJavaMethodInEachRowOfABenchmarkThatHasSeveral() throws Exception {
        String setup = "dev.tflitearena.bench.SetupBenchmark.";
        String json = "[" + result(setup + "nativeAllocateTensors", "", 100) + ","
                + result(setup + "javaPlanAndAllocateTensors", ", \"planner\": \"tflite\"", 300) + ","
                + result(setup + "javaReusedPlanAndAllocateTensors", ", \"planner\": \"tflite\"", 120) + "]";
        String markdown = BenchSummary.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json), List.of())
                .toMarkdown();
        assertTrue(markdown.contains("| setup `javaPlanAndAllocateTensors` | planner=tflite | 100.0 us/op | 300.0 us/op"
                + " | 3.000 |"), markdown);
        assertTrue(markdown.contains("| setup `javaReusedPlanAndAllocateTensors` | planner=tflite | 100.0 us/op"
                + " | 120.0 us/op | 1.200 |"), markdown);
    }

    private static String result(String benchmark, String params, double score) {
        return "{\"benchmark\": \"" + benchmark + "\", \"params\": {\"model\": \"" + MODEL + "\"" + params + "},"
                + " \"primaryMetric\": {\"scoreUnit\": \"us/op\", \"rawData\": [[" + score + ", " + score + "]]}}";
    }
}
