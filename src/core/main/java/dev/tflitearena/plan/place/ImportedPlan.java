package dev.tflitearena.plan.place;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Offsets an outside planner chose for the rw arena, read from a file and checked against the model before
 * they are used: MiniMalloc's output ({@code id,lower,upper,size,offset}, the rows of a
 * {@link MinimallocProblem} with an offset each) for one subgraph, or the project's plan JSON ({@code plan
 * --json}) for every subgraph. As a {@link Planner}, it places what the file places and, for a MiniMalloc file,
 * the other subgraphs as TFLite does; in-place aliases take their root's offset and the persistent arena is
 * laid out as TFLite lays it out.
 */
public final class ImportedPlan implements Planner {
    public static final String CSV_HEADER = MinimallocProblem.HEADER + ",offset";

    /** One placed buffer as the file has it; {@code where} names its place in the file. */
    record Row(String where, int id, long lower, long upper, long size, long offset) {
        String interval() {
            return "[" + lower + ", " + upper + ")";
        }
    }

    /** An in-place alias the plan JSON places, which must sit on its root. */
    private record Alias(String where, int id, int root, long offset) {
    }

    private final String name;
    /** The file, as the user named it: every refusal starts with it. */
    private final String source;
    private final Map<Integer, List<Row>> rowsBySubgraph;
    private final Map<Integer, List<Alias>> aliasesBySubgraph;
    /** MiniMalloc's sizes are aligned; the plan JSON's are the tensors' own. */
    private final boolean alignedSizes;
    /** A MiniMalloc file places one subgraph; the plan JSON must place them all. */
    private final boolean everySubgraph;

    private ImportedPlan(Path file, Map<Integer, List<Row>> rows, Map<Integer, List<Alias>> aliases,
                         boolean alignedSizes, boolean everySubgraph) {
        this.name = file.getFileName().toString();
        this.source = file.toString();
        this.rowsBySubgraph = rows;
        this.aliasesBySubgraph = aliases;
        this.alignedSizes = alignedSizes;
        this.everySubgraph = everySubgraph;
    }

    /** A {@code .csv} in MiniMalloc's output format placing {@code subgraph}, or a {@code .json} plan. */
    public static ImportedPlan read(Path file, int subgraph) throws IOException {
        String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
        try {
            if (lower.endsWith(".csv")) {
                return new ImportedPlan(file, Map.of(subgraph, parseCsv(Files.readAllLines(file))), Map.of(),
                        true, false);
            }
            if (lower.endsWith(".json")) {
                return parseJson(file, new ObjectMapper().readTree(file.toFile()));
            }
        } catch (InvalidPlanException e) {
            throw new InvalidPlanException(file + ": " + e.getMessage());
        }
        throw new IllegalArgumentException(file + ": a plan is a .csv in MiniMalloc's output format (" + CSV_HEADER
                + ") or a .json as plan --json writes it");
    }

    static List<Row> parseCsv(List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).strip().equals(CSV_HEADER)) {
            throw new InvalidPlanException("line 1: expected the header '" + CSV_HEADER + "', as MiniMalloc's "
                    + "--output writes it");
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = "line " + (i + 1);
            String[] cells = line.split(",", -1);
            if (cells.length != 5) {
                throw new InvalidPlanException(where + ": expected 5 fields, got " + cells.length);
            }
            long[] v = new long[5];
            for (int c = 0; c < 5; c++) {
                try {
                    v[c] = Long.parseLong(cells[c].strip());
                } catch (NumberFormatException e) {
                    throw new InvalidPlanException(where + ": '" + cells[c] + "' is not an integer");
                }
            }
            if (v[0] < 0 || v[0] > Integer.MAX_VALUE) {
                throw new InvalidPlanException(where + ": id " + v[0] + " is not a tensor index");
            }
            rows.add(new Row(where, (int) v[0], v[1], v[2], v[3], v[4]));
        }
        return rows;
    }

    private static ImportedPlan parseJson(Path file, JsonNode root) {
        JsonNode subgraphs = root.path("subgraphs");
        if (!subgraphs.isArray()) {
            throw new InvalidPlanException("no 'subgraphs' array: a plan JSON is what plan --json writes");
        }
        Map<Integer, List<Row>> rows = new TreeMap<>();
        Map<Integer, List<Alias>> aliases = new TreeMap<>();
        for (int s = 0; s < subgraphs.size(); s++) {
            JsonNode sg = subgraphs.get(s);
            int index = integer(sg, "index", "subgraphs[" + s + "]");
            List<Row> placed = new ArrayList<>();
            List<Alias> aliased = new ArrayList<>();
            JsonNode tensors = sg.path("tensors");
            for (int t = 0; t < tensors.size(); t++) {
                JsonNode tensor = tensors.get(t);
                String where = "subgraphs[" + s + "].tensors[" + t + "]";
                if (!"rw".equals(tensor.path("arena").asText()) || tensor.path("offset").isNull()) {
                    continue;
                }
                int id = integer(tensor, "index", where);
                long offset = integer(tensor, "offset", where);
                if (tensor.has("alias_of")) {
                    aliased.add(new Alias(where, id, integer(tensor, "alias_of", where), offset));
                } else {
                    placed.add(new Row(where, id, integer(tensor, "first", where),
                            integer(tensor, "last", where) + 1L, integer(tensor, "bytes", where), offset));
                }
            }
            if (rows.put(index, placed) != null) {
                throw new InvalidPlanException("subgraphs[" + s + "]: subgraph " + index + " is placed twice");
            }
            aliases.put(index, aliased);
        }
        return new ImportedPlan(file, rows, aliases, false, true);
    }

    private static int integer(JsonNode node, String field, String where) {
        JsonNode value = node.path(field);
        if (!value.canConvertToInt()) {
            throw new InvalidPlanException(where + ": '" + field + "' is missing or not an integer");
        }
        return value.intValue();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Plan plan(Graph graph) {
        for (int s : rowsBySubgraph.keySet()) {
            if (s < 0 || s >= graph.subgraphs().size()) {
                throw new InvalidPlanException(source + " places subgraph " + s + "; the model has "
                        + graph.subgraphs().size());
            }
        }
        return Planner.super.plan(graph);
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        List<Row> rows = rowsBySubgraph.get(subgraph.index());
        if (rows == null) {
            if (everySubgraph) {
                throw new InvalidPlanException(source + " has no subgraph " + subgraph.index()
                        + ": a plan JSON places every subgraph");
            }
            return new TflitePlanner().plan(subgraph, options);
        }
        Map<Integer, Long> offsets;
        try {
            offsets = checked(subgraph, options, rows);
            for (Alias alias : aliasesBySubgraph.getOrDefault(subgraph.index(), List.of())) {
                checkAlias(subgraph, options, alias, offsets);
            }
        } catch (InvalidPlanException e) {
            throw new InvalidPlanException(source + ", subgraph " + subgraph.index() + ": " + e.getMessage());
        }
        Placer fixed = new Placer() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Solution place(BufferSet buffers) {
                return new Solution(buffers.buffers().stream().mapToLong(b -> offsets.get(b.id())).toArray(), false);
            }
        };
        return new PlacerPlanner(fixed).plan(subgraph, options);
    }

    /** The offsets by tensor, once every row matches the model and no two live buffers share a byte. */
    private Map<Integer, Long> checked(Subgraph subgraph, Graph.Options options, List<Row> rows) {
        MinimallocProblem problem = MinimallocProblem.of(subgraph, options);
        Map<Integer, MinimallocProblem.Row> expected = new HashMap<>();
        problem.rows().forEach(r -> expected.put(r.id(), r));
        Map<Integer, Row> given = new HashMap<>();
        for (Row row : rows) {
            MinimallocProblem.Row want = expected.get(row.id());
            if (want == null) {
                throw new InvalidPlanException(row.where + ": id " + row.id + " is not a buffer of the rw arena: "
                        + whyNoBuffer(subgraph, options, row.id));
            }
            if (given.put(row.id, row) != null) {
                throw new InvalidPlanException(row.where + ": id " + row.id + " is placed twice");
            }
            String tensor = describe(subgraph, row.id);
            if (row.lower != want.lower() || row.upper != want.upper()) {
                throw new InvalidPlanException(row.where + ": " + tensor + " has the interval " + row.interval()
                        + " but the model has it live over [" + want.lower() + ", " + want.upper() + ")");
            }
            long size = alignedSizes ? want.size() : want.bytes();
            if (row.size != size) {
                throw new InvalidPlanException(row.where + ": " + tensor + " has size " + row.size
                        + " but the model's is " + size + (alignedSizes ? " (" + want.bytes()
                        + " bytes rounded up to the alignment of " + problem.alignment() + ")" : ""));
            }
            if (row.offset < 0 || row.offset % problem.alignment() != 0) {
                throw new InvalidPlanException(row.where + ": " + tensor + " at offset " + row.offset + ", which is "
                        + (row.offset < 0 ? "negative" : "not a multiple of the tensor alignment " + problem.alignment()));
            }
        }
        for (MinimallocProblem.Row want : problem.rows()) {
            if (!given.containsKey(want.id())) {
                throw new InvalidPlanException("id " + want.id() + " is missing: " + describe(subgraph, want.id())
                        + ", live over [" + want.lower() + ", " + want.upper() + "), " + want.size()
                        + " bytes, needs an offset");
            }
        }
        checkNoSharedByte(subgraph, rows);
        Map<Integer, Long> offsets = new HashMap<>();
        rows.forEach(r -> offsets.put(r.id, r.offset));
        return offsets;
    }

    /**
     * Sweeps the buffers by offset: only neighbours that share bytes are compared in time. Sizes are the
     * aligned ones for MiniMalloc's rows, which with aligned offsets share a byte exactly when the tensors do.
     */
    private static void checkNoSharedByte(Subgraph subgraph, List<Row> rows) {
        List<Row> byOffset = rows.stream().filter(r -> r.size > 0).sorted(Comparator.comparingLong(Row::offset))
                .toList();
        for (int i = 0; i < byOffset.size(); i++) {
            Row a = byOffset.get(i);
            for (int j = i + 1; j < byOffset.size() && byOffset.get(j).offset < a.offset + a.size; j++) {
                Row b = byOffset.get(j);
                if (a.lower < b.upper && b.lower < a.upper) {
                    throw new InvalidPlanException(describe(subgraph, a) + " and " + describe(subgraph, b)
                            + " are live together at node " + Math.max(a.lower, b.lower) + " and share bytes "
                            + b.offset + ".." + Math.min(a.offset + a.size, b.offset + b.size));
                }
            }
        }
    }

    private static void checkAlias(Subgraph subgraph, Graph.Options options, Alias alias, Map<Integer, Long> offsets) {
        if (alias.id < 0 || alias.id >= subgraph.tensors().size()) {
            throw new InvalidPlanException(alias.where + ": id " + alias.id + " is not a tensor: "
                    + whyNoBuffer(subgraph, options, alias.id));
        }
        int root = Lifetimes.of(subgraph, options).aliasRoot(alias.id);
        if (root != alias.root) {
            throw new InvalidPlanException(alias.where + ": " + describe(subgraph, alias.id) + " is given alias_of "
                    + alias.root + " but " + (root < 0 ? "shares no tensor's memory" : "shares tensor " + root
                    + "'s memory") + " in the model");
        }
        Long rootOffset = offsets.get(root);
        if (rootOffset != null && rootOffset != alias.offset) {
            throw new InvalidPlanException(alias.where + ": " + describe(subgraph, alias.id) + " shares tensor "
                    + root + "'s memory in place but is at offset " + alias.offset + ", tensor " + root + " at "
                    + rootOffset);
        }
    }

    /** Why a tensor gets no row of its own in the rw arena. */
    private static String whyNoBuffer(Subgraph subgraph, Graph.Options options, int id) {
        if (id < 0 || id >= subgraph.tensors().size()) {
            return "the subgraph has tensors 0.." + (subgraph.tensors().size() - 1);
        }
        Tensor tensor = subgraph.tensor(id);
        Lifetimes lifetimes = Lifetimes.of(subgraph, options);
        if (lifetimes.aliasRoot(id) >= 0) {
            return describe(subgraph, id) + " shares tensor " + lifetimes.aliasRoot(id)
                    + "'s memory in place, so it is placed with it";
        }
        return describe(subgraph, id) + " (" + tensor.allocation().name().toLowerCase(Locale.ROOT) + ", "
                + tensor.bytes() + " bytes) gets no memory of its own in the rw arena";
    }

    private static String describe(Subgraph subgraph, Row row) {
        return describe(subgraph, row.id) + " (" + row.where + ", live over " + row.interval() + ", bytes "
                + row.offset + ".." + (row.offset + row.size) + ")";
    }

    private static String describe(Subgraph subgraph, int id) {
        String name = subgraph.tensor(id).name();
        return "tensor " + id + (name.isEmpty() ? "" : " '" + name + "'");
    }
}
