package dev.tflitearena.release;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The release reports side by side, as a Markdown table: per model and release, the tensor count, both
 * arenas, the three timings and the cross-check, and in the last column every figure that changed from the
 * previous release by more than its threshold: one for counts and sizes, a larger one for times, which vary
 * from run to run.
 */
public final class ReleaseTable {
    private ReleaseTable() {
    }

    /** Percentages beyond which a change is listed. */
    public record Thresholds(double sizePercent, double timePercent) {
    }

    /** @param reports in release order; each compared with the one before it */
    public static String markdown(List<ReleaseReport> reports, Thresholds thresholds) {
        StringBuilder out = new StringBuilder();
        if (!reports.isEmpty()) {
            ReleaseReport.Timing timing = reports.get(0).timing();
            ReleaseReport.Machine machine = reports.get(0).machine();
            out.append(String.format(Locale.ROOT, "Builtin kernels, no XNNPACK; arenas are the plans' high-water "
                    + "marks. The last column lists counts and sizes that changed from the previous release by "
                    + "more than %.1f%%, times by more than %.1f%%. Times: %s; %d warm-up, %d samples; %s, %d "
                    + "processors, Java %s; highest load average while measuring: %s.%n%n",
                    thresholds.sizePercent(), thresholds.timePercent(), timing.method(), timing.warmup(),
                    timing.runs(), machine.arch(), machine.processors(), machine.java(),
                    String.join(", ", reports.stream().map(r -> String.format(Locale.ROOT, "%s %.1f",
                            r.tfliteLibrary(), r.machine().maxLoadAverage())).toList())));
        }
        out.append("| model | TFLite | tensors | arena bytes | persistent bytes | Java plan ms | native set-up ms "
                + "| invoke ms | cross-check | changed |\n");
        out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        for (String model : models(reports)) {
            ModelReport previous = null;
            for (ReleaseReport report : reports) {
                Optional<ModelReport> found = report.model(model);
                if (found.isEmpty()) {
                    continue;
                }
                ModelReport m = found.get();
                if (!m.ok()) {
                    out.append(String.format("| %s | %s | | | | | | | not built (see %s.json) | |%n", model,
                            report.tfliteLibrary(), report.tfliteRelease()));
                    previous = null;
                    continue;
                }
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %.3f | %.3f | %.1f | %s | %s |%n",
                        model, report.tfliteLibrary(), m.tensors(), m.arenaBytes(), m.persistentBytes(),
                        m.javaPlanMs(), m.nativeSetupMs(), m.invokeMs(), crossCheck(m),
                        previous == null ? "" : String.join(", ", changes(previous, m, thresholds))));
                previous = m;
            }
        }
        return out.toString();
    }

    static List<String> changes(ModelReport before, ModelReport after, Thresholds thresholds) {
        List<String> changed = new ArrayList<>();
        double size = thresholds.sizePercent();
        double time = thresholds.timePercent();
        add(changed, "tensors", new Growth(before.tensors(), after.tensors()), size);
        add(changed, "arena", new Growth(before.arenaBytes(), after.arenaBytes()), size);
        add(changed, "persistent", new Growth(before.persistentBytes(), after.persistentBytes()), size);
        add(changed, "Java plan", new Growth(before.javaPlanMs(), after.javaPlanMs()), time);
        add(changed, "set-up", new Growth(before.nativeSetupMs(), after.nativeSetupMs()), time);
        add(changed, "invoke", new Growth(before.invokeMs(), after.invokeMs()), time);
        return changed;
    }

    private static void add(List<String> changed, String figure, Growth growth, double thresholdPercent) {
        if (growth.beyond(thresholdPercent)) {
            changed.add(figure + " " + growth);
        }
    }

    private static String crossCheck(ModelReport m) {
        if (m.identical()) {
            return "identical";
        }
        List<String> different = m.crossChecks().stream().filter(c -> !c.identical())
                .map(c -> c.settings() + ": " + c.mismatches() + " mismatches").toList();
        return "DIFFERENT (" + String.join("; ", different) + ")";
    }

    private static Set<String> models(List<ReleaseReport> reports) {
        Set<String> models = new LinkedHashSet<>();
        reports.forEach(r -> r.models().forEach(m -> models.add(m.model())));
        return models;
    }
}
