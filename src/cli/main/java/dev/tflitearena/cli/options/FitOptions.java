package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

/** The bytes 'fit' asks a plan to fit in: --capacity for a buffer set, --budget for a model or graph. */
public final class FitOptions {
    @Option(names = "--capacity", paramLabel = "BYTES", description = "For a buffer set (.csv), with --planner "
            + "optimal: only whether it fits in BYTES. Prints the plan when it does, the proof when it cannot (the "
            + "lower bound over BYTES, or the exact search run to its end), or that --time-limit ran out first; "
            + "exit status 0 when it fits, 1 when not.")
    public Long capacity;

    @Option(names = "--budget", paramLabel = "BYTES", description = "For a model or graph: a plan whose rw arena "
            + "is within BYTES in every subgraph, under the rules in force (--release-inputs, --order). The "
            + "planner goes first; over the budget, the exact search looks for one within --time-limit. Prints "
            + "the plan, or why there is none: the lower bound over the budget with the node at the peak and "
            + "the tensors live there, or the search's proof; or that time ran out. Exit status 0 when within, "
            + "1 when not.")
    public Long budget;

    public boolean given() {
        return capacity != null || budget != null;
    }
}
