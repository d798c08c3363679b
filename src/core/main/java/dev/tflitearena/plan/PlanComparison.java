package dev.tflitearena.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two plans of the same graph, compared tensor by tensor: offsets and both arena sizes. A subgraph the expected
 * plan could not be read for (the native runtime never planned it, or freed it) is not compared, and says why.
 */
public record PlanComparison(Plan expected, Plan actual, List<SubgraphComparison> subgraphs) {

    /** One tensor whose offsets differ; -1 stands for "no arena memory". */
    public record Mismatch(int tensor, long bytes, long expectedOffset, long actualOffset) {
    }

    /** @param notCompared why the subgraph has no expected plan to compare; null when it is compared */
    public record SubgraphComparison(int subgraph, int tensorsCompared, List<Mismatch> mismatches,
                                     SubgraphPlan expected, SubgraphPlan actual, String notCompared) {
        /** True when compared and equal, or not compared: a plan that cannot be read differs from none. */
        public boolean identical() {
            return notCompared != null || mismatches.isEmpty() && expected.arenaBytes() == actual.arenaBytes()
                    && expected.persistentBytes() == actual.persistentBytes();
        }

        public boolean compared() {
            return notCompared == null;
        }
    }

    public boolean identical() {
        return subgraphs.stream().allMatch(SubgraphComparison::identical);
    }

    /** Compares two plans of one graph; both must list the same arena tensors of the same subgraphs. */
    public static PlanComparison of(Plan expected, Plan actual) {
        return of(expected, actual, Map.of());
    }

    /** As {@link #of(Plan, Plan)}, leaving out the subgraphs of {@code notCompared}, each with the reason. */
    public static PlanComparison of(Plan expected, Plan actual, Map<Integer, String> notCompared) {
        if (expected.subgraphs().size() != actual.subgraphs().size()) {
            throw new IllegalArgumentException("the plans cover " + expected.subgraphs().size() + " and "
                    + actual.subgraphs().size() + " subgraphs");
        }
        List<SubgraphComparison> subgraphs = new ArrayList<>();
        for (int s = 0; s < expected.subgraphs().size(); s++) {
            String reason = notCompared.get(s);
            subgraphs.add(reason == null ? compare(expected.subgraphs().get(s), actual.subgraphs().get(s))
                    : new SubgraphComparison(s, 0, List.of(), expected.subgraphs().get(s), actual.subgraphs().get(s),
                    reason));
        }
        return new PlanComparison(expected, actual, subgraphs);
    }

    private static SubgraphComparison compare(SubgraphPlan expected, SubgraphPlan actual) {
        List<Placement> e = expected.placements();
        List<Placement> a = actual.placements();
        if (e.size() != a.size()) {
            throw new IllegalArgumentException("subgraph " + expected.subgraph() + ": the plans place "
                    + e.size() + " and " + a.size() + " arena tensors");
        }
        List<Mismatch> mismatches = new ArrayList<>();
        for (int i = 0; i < e.size(); i++) {
            Placement pe = e.get(i);
            Placement pa = a.get(i);
            if (pe.tensor() != pa.tensor() || pe.arena() != pa.arena()) {
                throw new IllegalArgumentException("subgraph " + expected.subgraph() + ": the plans list tensor "
                        + pe.tensor() + " (" + pe.arena().jsonName() + ") against tensor " + pa.tensor() + " ("
                        + pa.arena().jsonName() + ")");
            }
            if (pe.offset() != pa.offset()) {
                mismatches.add(new Mismatch(pe.tensor(), pe.bytes(), pe.offset(), pa.offset()));
            }
        }
        return new SubgraphComparison(expected.subgraph(), e.size(), mismatches, expected, actual, null);
    }
}
