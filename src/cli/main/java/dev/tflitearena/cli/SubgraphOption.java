package dev.tflitearena.cli;

import picocli.CommandLine.Option;

/** {@code --subgraph}: the subgraph whose buffers 'export-buffers' (and 'plan --export-buffers') writes. */
final class SubgraphOption {
    @Option(names = "--subgraph", paramLabel = "N", description = "The subgraph whose buffers are written "
            + "(default: 0).")
    Integer subgraph;

    boolean given() {
        return subgraph != null;
    }

    int index() {
        return subgraph == null ? 0 : subgraph;
    }
}
