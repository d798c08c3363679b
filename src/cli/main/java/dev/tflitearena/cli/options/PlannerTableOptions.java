package dev.tflitearena.cli.options;

import picocli.CommandLine.Mixin;

/** What the planner table of 'compare-planners' and 'report' is measured under: both commands take the same. */
public final class PlannerTableOptions {
    @Mixin
    public TimeLimitOption timeLimit;

    @Mixin
    public PlanFileOption planFile;

    @Mixin
    public NativeOptions nativeOptions;

    @Mixin
    public ReleaseInputsOption releaseInputs;

    @Mixin
    public ForRuntimeOption forRuntime;
}
