package dev.tflitearena.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The progress of a command that runs long, which {@code --quiet} turns off. The root command declares
 * {@code --quiet} for every command ({@link Main}, or another front end's command, the benchmarks' jar).
 */
// A mixin without options of its own needs @Command for picocli to take it.
@Command
public final class ProgressOptions {
    public static final String QUIET = "--quiet";

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
        return new ProgressDisplay(spec.commandLine().getErr(), spec.name(),
                quiet() ? ProgressDisplay.Mode.OFF : mode);
    }

    boolean quiet() {
        OptionSpec quiet = spec.findOption(QUIET);
        if (quiet == null) {
            throw new IllegalStateException("command " + spec.qualifiedName() + " shows progress but takes no " + QUIET);
        }
        return quiet.getValue();
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
