package dev.tflitearena.release;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one TFLite release does with a set of models, as {@code release-report} measures it in the JVM that
 * loaded that release: the file {@code releases} writes per release and {@code regress} compares.
 *
 * @param tfliteLibrary the native library's own version, e.g. "2.12.0"
 * @param tfliteRelease the release whose planner rules the Java plan followed, e.g. "2.12"
 * @param timing        how the times were taken
 * @param machine       where, and how busy it was
 */
public record ReleaseReport(String format, int version, String tfliteLibrary, String tfliteRelease,
                            String resolver, Timing timing, Machine machine, List<ModelReport> models) {
    public static final String FORMAT = "tflite-arena-release-report";
    public static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT);

    /** In-process wall-clock timings, not JMH: {@code warmup} unmeasured runs, then the median of {@code runs}. */
    public record Timing(String method, int warmup, int runs) {
    }

    /**
     * @param maxLoadAverage the highest one-minute system load average seen after each model: above the
     *                       processor count, other processes competed for the processors and the times are
     *                       longer than the release alone would make them
     */
    public record Machine(String arch, int processors, String java, double maxLoadAverage) {
        /** True when the times were taken while other work competed for the processors. */
        public boolean busy() {
            return maxLoadAverage > processors;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s, %d processors, Java %s, load average up to %.1f", arch,
                    processors, java, maxLoadAverage);
        }
    }

    public ReleaseReport {
        models = List.copyOf(models);
    }

    public Optional<ModelReport> model(String name) {
        return models.stream().filter(m -> m.model().equals(name)).findFirst();
    }

    public static ReleaseReport read(Path file) throws IOException {
        ReleaseReport report = MAPPER.readValue(file.toFile(), ReleaseReport.class);
        if (!FORMAT.equals(report.format())) {
            throw new IOException(file + ": not a release report (format '" + report.format() + "', expected '"
                    + FORMAT + "')");
        }
        return report;
    }

    public String toJson() throws IOException {
        return MAPPER.writeValueAsString(this) + "\n";
    }
}
