package dev.tflitearena.release;

import java.util.List;

/**
 * One model on one TFLite release: whether the Java 'tflite' plan equals the native one under each
 * interpreter setting, and the native plan's sizes (summed over subgraphs): figures that are exact, the same on
 * every run and machine of an architecture. Times vary, and are compared only within one interleaved run
 * ({@code releases --compare}). A model the release cannot build (a custom op it lacks) has only its {@code error}.
 *
 * @param tensors              tensors of the prepared interpreter, temporaries included
 * @param arenaTensors         tensors in either arena: what the planner places
 * @param arenaBytes           the rw arena plan's high-water mark
 * @param persistentBytes      the persistent arena plan's high-water mark
 * @param arenaBufferBytes     the rw buffer the runtime holds (the mark plus the release's padding)
 * @param persistentBufferBytes the persistent buffer the runtime holds
 */
public record ModelReport(String model, String error, List<CrossCheckResult> crossChecks, int tensors,
                          int arenaTensors, long arenaBytes, long persistentBytes, long arenaBufferBytes,
                          long persistentBufferBytes) {

    /** The cross-check under one interpreter setting: the Java plan against the native one. */
    public record CrossCheckResult(String settings, boolean identical, int mismatches) {
    }

    public ModelReport {
        crossChecks = crossChecks == null ? List.of() : List.copyOf(crossChecks);
    }

    public static ModelReport failed(String model, String error) {
        return new ModelReport(model, error, List.of(), 0, 0, 0, 0, 0, 0);
    }

    public boolean ok() {
        return error == null;
    }

    /** True when every cross-check found the plans identical. */
    public boolean identical() {
        return ok() && crossChecks.stream().allMatch(CrossCheckResult::identical);
    }
}
