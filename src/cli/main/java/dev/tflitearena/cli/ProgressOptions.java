package dev.tflitearena.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --quiet}, of every command that runs long, and the progress it turns off. */
public final class ProgressOptions {
    @Option(names = "--quiet", description = "Show no progress on standard error.")
    boolean quiet;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** The command's progress: a bar when its standard error is a terminal, else a line per step. */
    public ProgressDisplay open() {
        return open(stderrIsTerminal() ? ProgressDisplay.Mode.BAR : ProgressDisplay.Mode.LINES);
    }

    /** The command's progress as a line per step even on a terminal, where the children it runs draw theirs. */
    ProgressDisplay openAsLines() {
        return open(ProgressDisplay.Mode.LINES);
    }

    private ProgressDisplay open(ProgressDisplay.Mode mode) {
        return new ProgressDisplay(spec.commandLine().getErr(), spec.name(), quiet ? ProgressDisplay.Mode.OFF : mode);
    }

    /**
     * What {@link Main#main} found of the standard error its commands print to (false when a test runs them),
     * or, for another front end's command (the benchmarks' jar), what this process's standard error is.
     */
    private boolean stderrIsTerminal() {
        return spec.root().userObject() instanceof Main main ? main.stderrIsTerminal
                : ProgressDisplay.stderrIsTerminal();
    }
}
