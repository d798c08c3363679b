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

    /**
     * @param reports          in release order; each compared with the one before it
     * @param thresholdPercent a count or size that changed by more than this is listed
     */
    public static String markdown(List<ReleaseReport> reports, double thresholdPercent) {
        StringBuilder out = new StringBuilder();
        if (!reports.isEmpty()) {
            out.append(String.format(Locale.ROOT, "Builtin kernels, no XNNPACK; arenas are the plans' high-water "
                    + "marks; %s. The last column lists counts and sizes that changed from the previous release by "
                    + "more than %.1f%%. Times are not here: 'releases --compare A,B' measures them, interleaved.%n%n",
                    reports.get(0).machine(), thresholdPercent));
        }
        out.append("| model | TFLite | tensors | arena bytes | persistent bytes | cross-check | changed |\n");
        out.append("| --- | --- | ---: | ---: | ---: | --- | --- |\n");
        for (String model : models(reports)) {
            ModelReport previous = null;
            for (ReleaseReport report : reports) {
                Optional<ModelReport> found = report.model(model);
                if (found.isEmpty()) {
                    continue;
                }
                ModelReport m = found.get();
                if (!m.ok()) {
                    out.append(String.format("| %s | %s | | | | not built (see %s.json) | |%n", model,
                            report.tfliteLibrary(), report.tfliteRelease()));
                    previous = null;
                    continue;
                }
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %s | %s |%n",
                        model, report.tfliteLibrary(), m.tensors(), m.arenaBytes(), m.persistentBytes(),
                        crossCheck(m), previous == null ? "" : String.join(", ", changes(previous, m, thresholdPercent))));
                previous = m;
            }
        }
        return out.toString();
    }

    static List<String> changes(ModelReport before, ModelReport after, double thresholdPercent) {
        List<String> changed = new ArrayList<>();
        add(changed, "tensors", new Growth(before.tensors(), after.tensors()), thresholdPercent);
        add(changed, "arena", new Growth(before.arenaBytes(), after.arenaBytes()), thresholdPercent);
        add(changed, "persistent", new Growth(before.persistentBytes(), after.persistentBytes()), thresholdPercent);
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
