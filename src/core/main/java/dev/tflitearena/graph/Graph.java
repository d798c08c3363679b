package dev.tflitearena.graph;

import java.util.List;
import java.util.Objects;

/** A whole model as the planners see it: planner options and every subgraph, primary first. */
public record Graph(Options options, List<Subgraph> subgraphs) {

    /**
     * The planner settings TFLite's Subgraph passes to its ArenaPlanner, and the TFLite release whose planner
     * rules apply. {@code releaseInputs} relaxes one of those rules: the primary subgraph's graph inputs live
     * until their last consumer instead of to the end of the run, as a caller that writes every input before
     * each run and never reads one back allows (see {@code dev.tflitearena.plan.Lifetimes}). TFLite itself
     * never plans so; off, the default, is TFLite's rule.
     */
    public record Options(int tensorAlignment, boolean preserveAllTensors, TfliteRelease release,
                          boolean releaseInputs) {
        public static final int DEFAULT_TENSOR_ALIGNMENT = 64;
        public static final Options DEFAULT = new Options(DEFAULT_TENSOR_ALIGNMENT, false);

        public Options {
            if (tensorAlignment < 1 || tensorAlignment > 64) {
                throw new IllegalArgumentException(
                        "tensor_alignment must be from 1 to 64 (no more than the arena's own alignment), got "
                                + tensorAlignment);
            }
            Objects.requireNonNull(release, "release");
        }

        /** Options under TFLite's own rule for graph inputs. */
        public Options(int tensorAlignment, boolean preserveAllTensors, TfliteRelease release) {
            this(tensorAlignment, preserveAllTensors, release, false);
        }

        /** Options under the newest release's rules. */
        public Options(int tensorAlignment, boolean preserveAllTensors) {
            this(tensorAlignment, preserveAllTensors, TfliteRelease.NEWEST);
        }

        public Options withRelease(TfliteRelease other) {
            return new Options(tensorAlignment, preserveAllTensors, other, releaseInputs);
        }

        public Options withReleaseInputs(boolean on) {
            return new Options(tensorAlignment, preserveAllTensors, release, on);
        }
    }

    public Graph {
        subgraphs = List.copyOf(subgraphs);
    }

    /** The same graph, planned under another release's rules. */
    public Graph withRelease(TfliteRelease release) {
        return new Graph(options.withRelease(release), subgraphs);
    }

    /** The same graph, planned with graph inputs released after their last consumer, or kept as TFLite does. */
    public Graph withReleaseInputs(boolean on) {
        return new Graph(options.withReleaseInputs(on), subgraphs);
    }
}
