package dev.tflitearena.release.compare;

import dev.tflitearena.release.ReleaseJson;

import java.io.IOException;
import java.util.List;

/**
 * What {@code slowed-models} made and measured: {@code slowdown.json} beside the slowed models.
 *
 * @param targetPercent the slowdown asked for
 * @param pairs         the pairs of samples each final measurement took
 * @param tfliteLibrary the native library's own version, e.g. "2.20.0"
 * @param resolver      the op resolver of every interpreter timed
 * @param threads       their thread count: -1, TFLite's default
 */
public record SlowdownReport(double targetPercent, int pairs, String tfliteLibrary, String resolver, int threads,
                             List<Entry> models) {
    /**
     * One model: its slowed copy has {@code operations} extra ADDs, and measured {@code measuredPercent}
     * slower (the fastest of its samples over the original's, less 1), the pairs' quartiles in
     * {@code measuredIqrPercent}; the invoke times are each side's fastest sample. A model that could not be
     * slowed or timed has only its {@code error}.
     */
    public record Entry(String model, String error, Integer operations, Double measuredPercent,
                        double[] measuredIqrPercent, Double originalInvokeMs, Double slowedInvokeMs) {
        public static Entry failed(String model, String error) {
            return new Entry(model, error, null, null, null, null, null);
        }

        public boolean ok() {
            return error == null;
        }
    }

    public SlowdownReport {
        models = List.copyOf(models);
    }

    public String toJson() throws IOException {
        return ReleaseJson.write(this);
    }
}
