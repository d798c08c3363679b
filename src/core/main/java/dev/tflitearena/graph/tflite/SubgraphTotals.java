package dev.tflitearena.graph.tflite;

import java.util.ArrayList;
import java.util.List;

/**
 * Naive byte totals of one subgraph, or of all ({@code subgraph} -1), from the file alone: every tensor
 * without constant data counts as an activation, no memory is shared and no kernel temporary counted. A
 * tensor of unknown size (STRING, RESOURCE, VARIANT, an unknown type) counts as 0 bytes and in {@code unsized}.
 */
public record SubgraphTotals(int subgraph, String name, int tensors, int operators, int activations,
                             long activationBytes, int constants, long constantBytes, int unsized) {
    /** The totals of a subgraph a model does not have. */
    public static final SubgraphTotals NONE = new SubgraphTotals(-1, "", 0, 0, 0, 0, 0, 0, 0);

    /** One per subgraph, in order. */
    public static List<SubgraphTotals> of(TfliteModel model) {
        List<SubgraphTotals> list = new ArrayList<>();
        for (TfliteSubgraph s : model.subgraphs()) {
            int activations = 0;
            int constants = 0;
            int unsized = 0;
            long activationBytes = 0;
            long constantBytes = 0;
            for (TfliteTensor t : s.tensors()) {
                if (t.bytes() < 0) {
                    unsized++;
                }
                if (t.constant()) {
                    constants++;
                    constantBytes += known(t.bytes());
                } else {
                    activations++;
                    activationBytes += known(t.bytes());
                }
            }
            list.add(new SubgraphTotals(s.index(), s.name(), s.tensors().size(), s.operators().size(), activations,
                    activationBytes, constants, constantBytes, unsized));
        }
        return list;
    }

    /** The totals of all the subgraphs. */
    public static SubgraphTotals sum(List<SubgraphTotals> totals) {
        return totals.stream().reduce(NONE, SubgraphTotals::plus);
    }

    /** A tensor's bytes as counted: 0 when unknown (-1). */
    static long known(long bytes) {
        return Math.max(bytes, 0);
    }

    private SubgraphTotals plus(SubgraphTotals o) {
        return new SubgraphTotals(-1, "", tensors + o.tensors, operators + o.operators, activations + o.activations,
                activationBytes + o.activationBytes, constants + o.constants, constantBytes + o.constantBytes,
                unsized + o.unsized);
    }
}
