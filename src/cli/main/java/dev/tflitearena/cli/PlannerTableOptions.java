package dev.tflitearena.cli;

import picocli.CommandLine.Mixin;

/** What the planner table of 'compare-planners' and 'report' is measured under: both commands take the same. */
final class PlannerTableOptions {
    @Mixin
    TimeLimitOption timeLimit;

    @Mixin
    PlanFileOption planFile;

    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    ReleaseInputsOption releaseInputs;

    @Mixin
    ForRuntimeOption forRuntime;
}
