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
 *
 * @param unpaired Java results with no native result to compare with, e.g. when a run included only them
 */
public record BenchSummary(List<Row> rows, int unpaired) {
    static final String NATIVE_PREFIX = "native";
    private static final String METHOD = "Medians over every measured iteration of every fork (JMH average "
            + "time per operation). Java/native is the ratio of the medians; the interval is a 95% percentile "
            + "bootstrap of that ratio (" + MedianRatio.RESAMPLES + " resamples of each side's iterations).";

    /** @param variant the parameters other than the model, e.g. {@code planner=tflite, xnnpack=true} */
    public record Row(String model, String benchmark, String variant, String nativeMethod, String javaMethod,
                      String unit, double nativeMedian, double javaMedian, MedianRatio ratio,
                      int nativeIterations, int javaIterations) {
    }

    private record Result(String benchmark, String method, Map<String, String> params, String unit,
                          double[] iterations) {
        boolean isNative() {
            return method.startsWith(NATIVE_PREFIX);
        }

        boolean isReferenceOf(Result java) {
            return isNative() && benchmark.equals(java.benchmark)
                    && java.params.entrySet().containsAll(params.entrySet());
        }
    }

    public static BenchSummary read(Path jmhJson) throws IOException {
        return of(new ObjectMapper().readTree(jmhJson.toFile()));
    }

    public static BenchSummary of(JsonNode jmhResults) {
        List<Result> results = StreamSupport.stream(jmhResults.spliterator(), false).map(BenchSummary::result).toList();
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
        rows.sort(Comparator.comparing(Row::model).thenComparing(Row::benchmark).thenComparing(Row::variant));
        return new BenchSummary(rows, unpaired);
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
        return new Result(benchmark, method, params, metric.path("scoreUnit").asText(), iterations);
    }

    public String toMarkdown() {
        StringBuilder out = new StringBuilder("# Java against native\n\n").append(METHOD).append("\n\n");
        rows.stream().map(r -> "- " + r.benchmark + ": `" + r.nativeMethod + "` against `" + r.javaMethod + "`\n")
                .distinct().forEach(out::append);
        String model = null;
        for (Row r : rows) {
            if (!r.model.equals(model)) {
                model = r.model;
                out.append("\n## ").append(model).append("\n\n")
                        .append("| benchmark | variant | native median | Java median | Java/native | 95% interval "
                                + "| iterations |\n")
                        .append("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
            }
            out.append(String.format(Locale.ROOT, "| %s | %s | %s %s | %s %s | %.3f | %.3f–%.3f | %d, %d |%n",
                    r.benchmark, r.variant, figure(r.nativeMedian), r.unit, figure(r.javaMedian), r.unit,
                    r.ratio.ratio(), r.ratio.low(), r.ratio.high(), r.nativeIterations, r.javaIterations));
        }
        if (unpaired > 0) {
            out.append("\n").append(unpaired).append(" Java result(s) had no native result to compare with.\n");
        }
        return out.toString();
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
        return root;
    }

    /** Four significant figures or more, without exponents: timings run from microseconds to seconds. */
    private static String figure(double value) {
        int decimals = Math.max(0, 3 - (int) Math.floor(Math.log10(Math.max(Math.abs(value), 1e-9))));
        return String.format(Locale.ROOT, "%." + Math.min(decimals, 6) + "f", value);
    }
}
