package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

/** {@code --subgraph}: the subgraph whose buffers 'export-buffers' (and 'plan --export-buffers') writes. */
public final class SubgraphOption {
    @Option(names = "--subgraph", paramLabel = "N", description = "The subgraph whose buffers are written "
            + "(default: 0).")
    Integer subgraph;

    public boolean given() {
        return subgraph != null;
    }

    public int index() {
        return subgraph == null ? 0 : subgraph;
    }
}
