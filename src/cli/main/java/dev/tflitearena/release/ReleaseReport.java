package dev.tflitearena.release;

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
 * @param machine       where: the figures are exact for an architecture
 */
public record ReleaseReport(String format, int version, String tfliteLibrary, String tfliteRelease,
                            String resolver, Machine machine, List<ModelReport> models) {
    public static final String FORMAT = "tflite-arena-release-report";
    /** 2: exact figures only; version 1 also held in-process times, which a reader of version 2 ignores. */
    public static final int VERSION = 2;

    public record Machine(String arch, int processors, String java) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s, %d processors, Java %s", arch, processors, java);
        }
    }

    public ReleaseReport {
        models = models == null ? null : List.copyOf(models);
    }

    public Optional<ModelReport> model(String name) {
        return models.stream().filter(m -> m.model().equals(name)).findFirst();
    }

    public static ReleaseReport read(Path file) throws IOException {
        ReleaseReport report = ReleaseJson.read(file, ReleaseReport.class, FORMAT, VERSION);
        if (report.models() == null || report.tfliteLibrary() == null) {
            throw new IOException(file + ": no " + (report.models() == null ? "models" : "tflite_library")
                    + " field: not a whole release report");
        }
        return report;
    }

    public String toJson() throws IOException {
        return ReleaseJson.write(this);
    }
}
