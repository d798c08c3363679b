package dev.tflitearena.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * JMH's JSON results as a table per model: each Java benchmark beside its native reference, their medians and
 * the ratio Java/native with its interval (see {@link MedianRatio}). Within a benchmark class, the reference
 * is the method whose name starts with {@code native}, run with the same parameters as far as it has them
 * (the native planner has no {@code planner} parameter, so it is the reference of every Java planner).
 * {@link ThroughputBenchmark}'s results make a table of their own, in operations per second, each variant
 * against the raw interpreter of the same run, with what DJL's check found.
 *
 * @param unpaired   Java results with no native result to compare with, e.g. when a run included only them
 * @param throughput the throughput results, the raw interpreter's first for each model and XNNPACK setting
 * @param djl        the check of DJL on each model, before it was timed; empty when DJL was not asked for
 */
public record BenchSummary(List<Row> rows, int unpaired, List<Throughput> throughput, List<DjlCheck> djl) {
    static final String NATIVE_PREFIX = "native";
    static final String THROUGHPUT = "throughput";
    private static final String XNNPACK = "xnnpack";
    private static final String THROUGHPUT_METHOD = "Inferences per second, summed over the callers (JMH "
            + "throughput): one operation writes the model's seeded inputs, runs it once and copies every output "
            + "to the Java heap. `nativeInterpreter`: one raw NativeInterpreter, one caller, the reference; "
            + "`poolN`: a SessionPool of N sessions with N concurrent callers; `djl`: DJL's TFLite engine, a "
            + "Predictor with a NoopTranslator, one caller. XNNPACK off is BuiltinOpResolverWithoutDefaultDelegates; "
            + "DJL applies no XNNPACK, so it is compared with the raw interpreter XNNPACK off. Medians over every "
            + "measured iteration of every fork; the ratio to the raw interpreter has a 95% percentile-bootstrap "
            + "interval (" + MedianRatio.RESAMPLES + " resamples of each side's iterations).";
    private static final String METHOD = "Medians over every measured iteration of every fork (JMH average "
            + "time per operation). Java/native is the ratio of the medians; the interval is a 95% percentile "
            + "bootstrap of that ratio (" + MedianRatio.RESAMPLES + " resamples of each side's iterations).";

    /** @param variant the parameters other than the model, e.g. {@code planner=tflite, xnnpack=true} */
    public record Row(String model, String benchmark, String variant, String nativeMethod, String javaMethod,
                      String unit, double nativeMedian, double javaMedian, MedianRatio ratio,
                      int nativeIterations, int javaIterations) {
    }

    /**
     * One throughput variant of a model.
     *
     * @param toRaw the ratio of its median to the raw interpreter's, null for the raw interpreter itself or
     *              when the run lacks it
     */
    public record Throughput(String model, String method, boolean xnnpack, int callers, String unit, double median,
                             MedianRatio toRaw, int iterations) {
        private int rank() {
            return method.startsWith(NATIVE_PREFIX) ? 0 : method.startsWith("pool") ? 1 : 2;
        }
    }

    private record Result(String benchmark, String method, Map<String, String> params, String unit,
                          double[] iterations, int threads) {
        boolean isNative() {
            return method.startsWith(NATIVE_PREFIX);
        }

        boolean isReferenceOf(Result java) {
            return isNative() && benchmark.equals(java.benchmark)
                    && java.params.entrySet().containsAll(params.entrySet());
        }
    }

    public static BenchSummary read(Path jmhJson) throws IOException {
        return read(jmhJson, List.of());
    }

    public static BenchSummary read(Path jmhJson, List<DjlCheck> djl) throws IOException {
        return of(new ObjectMapper().readTree(jmhJson.toFile()), djl);
    }

    public static BenchSummary of(JsonNode jmhResults, List<DjlCheck> djl) {
        List<Result> all = StreamSupport.stream(jmhResults.spliterator(), false).map(BenchSummary::result).toList();
        List<Result> results = all.stream().filter(r -> !r.benchmark.equals(THROUGHPUT)).toList();
        List<Row> rows = new ArrayList<>();
        int unpaired = 0;
        for (Result java : results) {
            if (java.isNative()) {
                continue;
            }
            Result reference = results.stream().filter(r -> r.isReferenceOf(java)).findFirst().orElse(null);
            if (reference == null) {
                unpaired++;
                continue;
            }
            Map<String, String> variant = new TreeMap<>(java.params);
            String model = variant.remove("model");
            rows.add(new Row(model, java.benchmark, variant.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")),
                    reference.method, java.method, java.unit, MedianRatio.median(reference.iterations),
                    MedianRatio.median(java.iterations), MedianRatio.of(java.iterations, reference.iterations),
                    reference.iterations.length, java.iterations.length));
        }
        rows.sort(Comparator.comparing(Row::model).thenComparing(Row::benchmark).thenComparing(Row::variant)
                .thenComparing(Row::javaMethod));
        return new BenchSummary(rows, unpaired, throughput(all.stream().filter(r -> r.benchmark.equals(THROUGHPUT))
                .toList()), djl);
    }

    /**
     * Each throughput result against the raw interpreter's of the same model and XNNPACK setting; DJL, which
     * has no XNNPACK parameter, runs without it.
     */
    private static List<Throughput> throughput(List<Result> results) {
        List<Throughput> rows = new ArrayList<>();
        for (Result result : results) {
            String model = result.params.get("model");
            String xnnpack = result.params.getOrDefault(XNNPACK, "false");
            Result raw = results.stream().filter(r -> r.isNative() && model.equals(r.params.get("model"))
                    && xnnpack.equals(r.params.get(XNNPACK))).findFirst().orElse(null);
            rows.add(new Throughput(model, result.method, Boolean.parseBoolean(xnnpack), result.threads, result.unit,
                    MedianRatio.median(result.iterations), raw == null || raw == result ? null
                    : MedianRatio.of(result.iterations, raw.iterations), result.iterations.length));
        }
        rows.sort(Comparator.comparing(Throughput::model).thenComparing(Throughput::xnnpack)
                .thenComparingInt(Throughput::rank).thenComparingInt(Throughput::callers));
        return rows;
    }

    /** One JMH result: its class's short name ({@code InvokeBenchmark} as {@code invoke}), method and data. */
    private static Result result(JsonNode node) {
        String name = node.path("benchmark").asText();
        String method = name.substring(name.lastIndexOf('.') + 1);
        String className = name.substring(0, name.lastIndexOf('.'));
        String benchmark = className.substring(className.lastIndexOf('.') + 1).replaceFirst("Benchmark$", "")
                .toLowerCase(Locale.ROOT);
        Map<String, String> params = new TreeMap<>();
        node.path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
        JsonNode metric = node.path("primaryMetric");
        double[] iterations = StreamSupport.stream(metric.path("rawData").spliterator(), false)
                .flatMap(fork -> StreamSupport.stream(fork.spliterator(), false))
                .mapToDouble(JsonNode::asDouble).toArray();
        return new Result(benchmark, method, params, metric.path("scoreUnit").asText(), iterations,
                node.path("threads").asInt(1));
    }

    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        if (!rows.isEmpty() || unpaired > 0) {
            appendJavaAgainstNative(out);
        }
        if (!throughput.isEmpty() || !djl.isEmpty()) {
            appendThroughput(out.append(out.length() > 0 ? "\n" : ""));
        }
        return out.toString();
    }

    private void appendJavaAgainstNative(StringBuilder out) {
        out.append("# Java against native\n\n").append(METHOD).append("\n\n");
        rows.stream().map(r -> "- " + r.benchmark + ": `" + r.nativeMethod + "` against `" + r.javaMethod + "`\n")
                .distinct().forEach(out::append);
        // A benchmark class with more than one Java method names the method in each row.
        Map<String, Long> javaMethods = rows.stream().map(r -> List.of(r.benchmark, r.javaMethod)).distinct()
                .collect(Collectors.groupingBy(key -> key.get(0), Collectors.counting()));
        String model = null;
        for (Row r : rows) {
            String benchmark = javaMethods.get(r.benchmark) > 1 ? r.benchmark + " `" + r.javaMethod + "`" : r.benchmark;
            if (!r.model.equals(model)) {
                model = r.model;
                out.append("\n## ").append(model).append("\n\n")
                        .append("| benchmark | variant | native median | Java median | Java/native | 95% interval "
                                + "| iterations |\n")
                        .append("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
            }
            out.append(String.format(Locale.ROOT, "| %s | %s | %s %s | %s %s | %.3f | %.3f–%.3f | %d, %d |%n",
                    benchmark, r.variant, figure(r.nativeMedian), r.unit, figure(r.javaMedian), r.unit,
                    r.ratio.ratio(), r.ratio.low(), r.ratio.high(), r.nativeIterations, r.javaIterations));
        }
        if (unpaired > 0) {
            out.append("\n").append(unpaired).append(" Java result(s) had no native result to compare with.\n");
        }
    }

    private void appendThroughput(StringBuilder out) {
        out.append("# Throughput\n\n").append(THROUGHPUT_METHOD).append("\n");
        if (!djl.isEmpty()) {
            out.append("\nDJL, checked against the raw interpreter (XNNPACK off) on the same inputs before it was "
                    + "timed (float outputs within ").append(String.format(Locale.ROOT, "%.0e", DjlCheck.TOLERANCE))
                    .append(" of the largest magnitude):\n\n");
            for (DjlCheck check : djl) {
                out.append("- ").append(check.model()).append(": ").append(check.engine() == null ? "" : check.engine()
                        + "; ").append(check.passed() ? String.format(Locale.ROOT, "outputs agree, largest "
                        + "difference %.3g", check.maxDifference()) : "not timed: " + check.error()).append("\n");
            }
        }
        String model = null;
        for (Throughput t : throughput) {
            if (!t.model.equals(model)) {
                model = t.model;
                out.append("\n## ").append(model).append("\n\n")
                        .append("| variant | callers | XNNPACK | median | / raw | 95% interval | iterations |\n")
                        .append("| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
            }
            out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s %s | %s | %s | %d |%n", t.method, t.callers,
                    t.xnnpack ? "on" : "off", figure(t.median), t.unit,
                    t.toRaw == null ? "reference" : String.format(Locale.ROOT, "%.3f", t.toRaw.ratio()),
                    t.toRaw == null ? "" : String.format(Locale.ROOT, "%.3f–%.3f", t.toRaw.low(), t.toRaw.high()),
                    t.iterations));
        }
    }

    public ObjectNode toJson() {
        ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("method", METHOD);
        root.put("unpaired", unpaired);
        ArrayNode array = root.putArray("rows");
        for (Row r : rows) {
            ObjectNode row = array.addObject();
            row.put("model", r.model);
            row.put("benchmark", r.benchmark);
            row.put("native_method", r.nativeMethod);
            row.put("java_method", r.javaMethod);
            row.put("variant", r.variant);
            row.put("unit", r.unit);
            row.put("native_median", r.nativeMedian);
            row.put("java_median", r.javaMedian);
            row.put("ratio", r.ratio.ratio());
            row.put("ratio_low", r.ratio.low());
            row.put("ratio_high", r.ratio.high());
            row.put("native_iterations", r.nativeIterations);
            row.put("java_iterations", r.javaIterations);
        }
        ArrayNode throughputRows = root.putArray(THROUGHPUT);
        for (Throughput t : throughput) {
            ObjectNode row = throughputRows.addObject();
            row.put("model", t.model);
            row.put("method", t.method);
            row.put(XNNPACK, t.xnnpack);
            row.put("callers", t.callers);
            row.put("unit", t.unit);
            row.put("median", t.median);
            if (t.toRaw != null) {
                row.put("ratio_to_raw", t.toRaw.ratio());
                row.put("ratio_low", t.toRaw.low());
                row.put("ratio_high", t.toRaw.high());
            }
            row.put("iterations", t.iterations);
        }
        ArrayNode checks = root.putArray("djl");
        for (DjlCheck check : djl) {
            ObjectNode row = checks.addObject();
            row.put("model", check.model());
            row.put("engine", check.engine());
            row.put("passed", check.passed());
            row.put("max_difference", check.maxDifference());
            row.put("error", check.error());
        }
        return root;
    }

    /** Four significant figures or more, without exponents: timings run from microseconds to seconds. */
    private static String figure(double value) {
        int decimals = Math.max(0, 3 - (int) Math.floor(Math.log10(Math.max(Math.abs(value), 1e-9))));
        return String.format(Locale.ROOT, "%." + Math.min(decimals, 6) + "f", value);
    }
}
