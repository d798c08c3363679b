package dev.tflitearena.cli.options;

import dev.tflitearena.cli.output.ProgressDisplay;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The progress of a command that runs long, which {@code --quiet} turns off. The root command declares
 * {@code --quiet} for every command (the tool's Main, or another front end's command, the benchmarks' jar).
 */
// A mixin without options of its own needs @Command for picocli to take it.
@Command
public final class ProgressOptions {
    public static final String QUIET = "--quiet";

    /** A root command that knows whether the standard error its commands print to is a terminal. */
    public interface Terminal {
        /** What the front end found of its standard error (false when a test runs its commands). */
        boolean stderrIsTerminal();
    }

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** The command's progress: a bar when its standard error is a terminal, else a line per step. */
    public ProgressDisplay open() {
        return open(stderrIsTerminal() ? ProgressDisplay.Mode.BAR : ProgressDisplay.Mode.LINES);
    }

    /** The command's progress as a line per step even on a terminal, where the children it runs draw theirs. */
    public ProgressDisplay openAsLines() {
        return open(ProgressDisplay.Mode.LINES);
    }

    private ProgressDisplay open(ProgressDisplay.Mode mode) {
        return new ProgressDisplay(spec.commandLine().getErr(), spec.name(),
                quiet() ? ProgressDisplay.Mode.OFF : mode);
    }

    public boolean quiet() {
        OptionSpec quiet = spec.findOption(QUIET);
        if (quiet == null) {
            throw new IllegalStateException("command " + spec.qualifiedName() + " shows progress but takes no " + QUIET);
        }
        return quiet.getValue();
    }

    /**
     * What the root command found of the standard error its commands print to ({@link Terminal}), or, for a
     * front end's command whose root does not say (the benchmarks' jar), what this process's standard error is.
     */
    private boolean stderrIsTerminal() {
        return spec.root().userObject() instanceof Terminal root ? root.stderrIsTerminal()
                : ProgressDisplay.stderrIsTerminal();
    }
}
