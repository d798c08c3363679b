package dev.tflitearena.plan.place;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.ArrayList;
import java.util.List;

/**
 * A subgraph's rw arena as an external planner gets it, in MiniMalloc's terms: one buffer per tensor that
 * owns rw memory (in-place aliases ride on their root), its {@code id} the tensor's index in the subgraph,
 * live over the half-open node interval [lower, upper), its size rounded up to the tensor alignment so that
 * buffers packed end to end stay aligned. {@link ImportedPlan} checks a solution against the same rows.
 */
public record MinimallocProblem(Subgraph subgraph, int alignment, List<Row> rows, long lowerBound) {
    public static final String HEADER = "id,lower,upper,size";

    /** {@code bytes} is the tensor's own size, {@code size} the aligned one MiniMalloc places. */
    public record Row(int id, int lower, int upper, long size, long bytes) {
    }

    public MinimallocProblem {
        rows = List.copyOf(rows);
    }

    public static MinimallocProblem of(Subgraph subgraph, Graph.Options options) {
        BufferSet buffers = BufferSet.of(subgraph, options);
        int alignment = options.tensorAlignment();
        List<Row> rows = new ArrayList<>();
        for (BufferSet.Buffer b : buffers.buffers()) {
            rows.add(new Row(b.id(), b.first(), b.last() + 1, SimpleMemoryArena.alignUp(b.size(), alignment), b.size()));
        }
        return new MinimallocProblem(subgraph, alignment, rows, buffers.lowerBound());
    }

    /** The rows as MiniMalloc reads them, header first. */
    public List<String> csvLines() {
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(HEADER);
        for (Row r : rows) {
            lines.add(r.id + "," + r.lower + "," + r.upper + "," + r.size);
        }
        return lines;
    }
}
