package dev.tflitearena.graph.tflite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every tensor of two models (say, a float model and its int8 version), matched by subgraph and name, the
 * largest byte change first, with both models' totals; and their metadata entries matched by name, with the
 * count of buffers each has (a baked plan adds an entry and its buffer, and nothing else).
 */
public record ModelDiff(List<SubgraphTotals> totalsA, List<SubgraphTotals> totalsB, List<Change> rows,
                        List<MetadataChange> metadata, int buffersA, int buffersB) {

    public enum Status {
        CHANGED, UNCHANGED, ADDED, REMOVED;

        /** As the reports spell it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One tensor of either model or both; {@code a} is null when added, {@code b} when removed. */
    public record Change(int subgraph, String name, TfliteTensor a, TfliteTensor b) {
        public Status status() {
            if (a == null) {
                return Status.ADDED;
            }
            if (b == null) {
                return Status.REMOVED;
            }
            boolean same = a.bytes() == b.bytes() && a.type() == b.type() && Arrays.equals(a.shape(), b.shape())
                    && a.kind().equals(b.kind());
            return same ? Status.UNCHANGED : Status.CHANGED;
        }

        /** B's bytes less A's, a missing or unsized tensor counting 0. */
        public long difference() {
            return (b == null ? 0 : SubgraphTotals.known(b.bytes())) - (a == null ? 0 : SubgraphTotals.known(a.bytes()));
        }
    }

    /** One metadata entry of either model or both, by name; {@code a} is null when added, {@code b} when removed. */
    public record MetadataChange(String name, TfliteModel.Metadata a, TfliteModel.Metadata b) {
        public Status status() {
            if (a == null) {
                return Status.ADDED;
            }
            if (b == null) {
                return Status.REMOVED;
            }
            return Arrays.equals(a.data(), b.data()) ? Status.UNCHANGED : Status.CHANGED;
        }
    }

    /** A tensor's identity across two models: its subgraph, its name, and which of the tensors so named it is. */
    private record Key(int subgraph, String name, int occurrence) {
    }

    public static ModelDiff of(TfliteModel a, TfliteModel b) {
        Map<Key, TfliteTensor> inB = new LinkedHashMap<>(keyed(b));
        List<Change> rows = new ArrayList<>();
        keyed(a).forEach((key, t) -> rows.add(new Change(key.subgraph(), key.name(), t, inB.remove(key))));
        inB.forEach((key, t) -> rows.add(new Change(key.subgraph(), key.name(), null, t)));
        // Largest change first; then changes before unchanged tensors; ties keep A's order, then B's.
        rows.sort(Comparator.comparingLong((Change c) -> -Math.abs(c.difference()))
                .thenComparing(c -> c.status() == Status.UNCHANGED));
        return new ModelDiff(SubgraphTotals.of(a), SubgraphTotals.of(b), rows, metadata(a, b), a.bufferCount(),
                b.bufferCount());
    }

    /** Entries matched by name, in A's order then B's; a name given twice is matched in turn. */
    private static List<MetadataChange> metadata(TfliteModel a, TfliteModel b) {
        List<TfliteModel.Metadata> inB = new ArrayList<>(b.metadata());
        List<MetadataChange> changes = new ArrayList<>();
        for (TfliteModel.Metadata m : a.metadata()) {
            TfliteModel.Metadata match = inB.stream().filter(x -> x.name().equals(m.name())).findFirst().orElse(null);
            inB.remove(match);
            changes.add(new MetadataChange(m.name(), m, match));
        }
        inB.forEach(m -> changes.add(new MetadataChange(m.name(), null, m)));
        return changes;
    }

    private static Map<Key, TfliteTensor> keyed(TfliteModel m) {
        Map<Key, TfliteTensor> map = new LinkedHashMap<>();
        for (TfliteSubgraph s : m.subgraphs()) {
            Map<String, Integer> seen = new HashMap<>();
            for (TfliteTensor t : s.tensors()) {
                int occurrence = seen.merge(t.name(), 1, Integer::sum) - 1;
                map.put(new Key(s.index(), t.name(), occurrence), t);
            }
        }
        return map;
    }

    /** The rows that are not unchanged. */
    public List<Change> changes() {
        return rows.stream().filter(c -> c.status() != Status.UNCHANGED).toList();
    }

    public long count(Status status) {
        return rows.stream().filter(c -> c.status() == status).count();
    }

    public int subgraphs() {
        return Math.max(totalsA.size(), totalsB.size());
    }

    public SubgraphTotals a(int subgraph) {
        return subgraph < totalsA.size() ? totalsA.get(subgraph) : SubgraphTotals.NONE;
    }

    public SubgraphTotals b(int subgraph) {
        return subgraph < totalsB.size() ? totalsB.get(subgraph) : SubgraphTotals.NONE;
    }
}
