package dev.tflitearena.cli.options;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.catalog.Planners;
import picocli.CommandLine.Option;

/** The relaxed rule for graph inputs, on every command that plans or runs a model: plan, compare-planners, report, run, memory. */
public final class ReleaseInputsOption {
    @Option(names = "--release-inputs", description = "Plan with each graph input freed after its last consumer "
            + "instead of kept to the end of the run, as TFLite keeps it, so that later tensors reuse its bytes: "
            + "the caller writes every input before each run and never reads one back. Variables, inputs that are "
            + "also outputs and control-flow subgraphs keep TFLite's rule. Every Java planner, the lower bound and "
            + "the validator follow it; the tflite planner is then TFLite's algorithm under this rule, no longer "
            + "TFLite's own plan. Needs a Java planner where a model runs.")
    public boolean on;

    /** The graph under the rule when asked for, else as it is: a graph JSON may name the rule itself. */
    public Graph apply(Graph graph) {
        return on ? graph.withReleaseInputs(true) : graph;
    }

    /** TFLite's own planner knows no such rule: refused before anything is built. */
    public void requireJavaPlanner(String planner) {
        if (on && Planners.NATIVE.equals(planner)) {
            throw new IllegalArgumentException("--release-inputs needs a Java planner (--planner " + Planners.names()
                    + "): TFLite's own planner keeps every graph input to the end of a run");
        }
    }

    /** A MiniMalloc CSV has buffers, not graph inputs: the flag cannot apply to it. */
    public void refuseForBuffers() {
        if (on) {
            throw new IllegalArgumentException("--release-inputs applies to a model or a graph JSON: a MiniMalloc "
                    + "CSV's buffers carry their own lifetimes");
        }
    }
}
