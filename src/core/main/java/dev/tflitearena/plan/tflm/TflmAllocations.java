package dev.tflitearena.plan.tflm;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.graph.tflite.TfliteOperator;
import dev.tflitearena.graph.tflite.TfliteSubgraph;
import dev.tflitearena.graph.tflite.TfliteTensor;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every tensor of a model as TensorFlow Lite Micro's {@code AllocationInfoBuilder} sees it
 * ({@code micro_allocation_info.cc}): one timeline for all subgraphs, tensors numbered across them in order (as
 * the offline plan indexes them), and a buffer in the arena's non-persistent head for each tensor that needs one.
 *
 * <p>The timeline is TFLM's allocation scope count. It starts at 0, where subgraph 0's inputs are created; each
 * operator opens a scope; a control-flow operator opens one more for each subgraph it calls (IF: then, else;
 * WHILE: condition, body; CALL_ONCE: init) and marks that subgraph's tensors there, before its own inputs are last
 * used. A subgraph's inputs are created when it starts, its operators' outputs at their operator, every tensor is
 * last used at the last operator that reads or writes it, and a subgraph's outputs live to its end. A tensor needs
 * allocating when it has no data in the model, is not a variable (TFLM keeps variables in its persistent tail)
 * and has bytes; its size is rounded up to TFLM's buffer alignment, as {@code CommitStaticMemoryPlan} rounds it
 * before {@code AddBuffer}. Kernels' scratch buffers are requested at run time and are not here.
 */
public final class TflmAllocations {
    /** TFLM's MicroArenaBufferAlignment(). */
    public static final int DEFAULT_ALIGNMENT = 16;
    /** TFLM's kUninitializedLifetime. */
    static final int UNINITIALIZED = -1;

    /** Why a tensor has no buffer of its own in the head, when it has none. */
    public enum Online {
        CONSTANT("constant: TFLM reads its data from the model"),
        VARIABLE("variable: TFLM allocates it in its persistent tail, where it keeps its state between invocations"),
        EMPTY("0 bytes: nothing to allocate"),
        NO_LIFETIME("nothing creates it where TFLM marks lifetimes (no operator of a subgraph that runs writes it, "
                + "and it is no input of one)");

        private final String why;

        Online(String why) {
            this.why = why;
        }

        public String why() {
            return why;
        }
    }

    /**
     * One tensor: {@code id} its index across subgraphs; {@code bytes} as the model declares it, {@code size}
     * rounded up to the alignment; steps {@code first}..{@code last} inclusive; {@code online} null when it needs a
     * buffer.
     */
    public record Entry(int id, int subgraph, int tensor, String name, long bytes, long size, int first, int last,
                        Online online) {
        public boolean needsAllocating() {
            return online == null;
        }
    }

    private final TfliteModel model;
    private final int alignment;
    private final List<Entry> entries;
    private final int[] subgraphOffsets;
    private final int steps;

    private TflmAllocations(TfliteModel model, int alignment, List<Entry> entries, int[] subgraphOffsets, int steps) {
        this.model = model;
        this.alignment = alignment;
        this.entries = List.copyOf(entries);
        this.subgraphOffsets = subgraphOffsets;
        this.steps = steps;
    }

    public static TflmAllocations of(TfliteModel model) {
        return of(model, DEFAULT_ALIGNMENT);
    }

    public static TflmAllocations of(TfliteModel model, int alignment) {
        if (alignment < 1 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("the alignment must be a power of two, got " + alignment);
        }
        return new Marker(model).mark(alignment);
    }

    public TfliteModel model() {
        return model;
    }

    public int alignment() {
        return alignment;
    }

    /** Every tensor of every subgraph, by id. */
    public List<Entry> entries() {
        return entries;
    }

    /** The id of subgraph s's tensor t. */
    public int id(int subgraph, int tensor) {
        return subgraphOffsets[subgraph] + tensor;
    }

    /** "subgraph S, tensor T ('name')", for the tensor of that id. */
    public String describe(int id) {
        Entry e = entries.get(id);
        return "subgraph " + e.subgraph() + ", tensor " + e.tensor() + " ('" + e.name() + "')";
    }

    /** The scopes of the timeline, 0 included. */
    public int steps() {
        return steps;
    }

    /** The buffers of the tensors that need allocating, by id, at their rounded sizes. */
    public BufferSet buffers() {
        List<BufferSet.Buffer> buffers = new ArrayList<>();
        for (Entry e : entries) {
            if (e.needsAllocating()) {
                buffers.add(new BufferSet.Buffer(e.id(), e.size(), e.first(), e.last()));
            }
        }
        return new BufferSet(buffers, steps, alignment);
    }

    /**
     * The offsets of an offline plan that TFLM keeps, by id: those of the tensors that need allocating; it
     * ignores the others' (a constant's, an empty tensor's). As TFLM takes them: {@link #check} says whether
     * they hold.
     */
    public Map<Integer, Long> offline(OfflineMemoryAllocation plan) {
        Map<Integer, Long> offsets = new HashMap<>();
        for (Entry e : entries) {
            int offset = plan.offsets().get(e.subgraph())[e.tensor()];
            if (e.needsAllocating() && offset != OfflineMemoryAllocation.ONLINE) {
                offsets.put(e.id(), (long) offset);
            }
        }
        return offsets;
    }

    /**
     * Refuses an offline plan that does not hold, naming the first problem. TFLM itself checks almost nothing
     * of it, and runs as given an overlap, a negative or misaligned offset, an arena inflated by an offset far
     * out (its own tests keep two live inputs on one offset). The plan holds when its version is
     * {@value TflmOfflinePlan#VERSION}, it declares the model's subgraph count, every offset it gives a tensor
     * that needs allocating is a multiple of the alignment, no two of those tensors that live at once share a
     * byte, and none ends beyond {@link #totalBytes} (every buffer end to end, which no sensible plan passes).
     * The reader has refused a wrong offset count and offsets below -1 already.
     */
    public void check(OfflineMemoryAllocation plan) {
        String where = "metadata '" + OfflineMemoryAllocation.NAME + "'";
        if (plan.version() != TflmOfflinePlan.VERSION) {
            throw new InvalidPlanException(where + ": version " + plan.version() + "; TFLM's offline plans are version "
                    + TflmOfflinePlan.VERSION + " (Vela and this project write it)");
        }
        if (plan.subgraphs() != model.subgraphs().size()) {
            throw new InvalidPlanException(where + ": declares " + plan.subgraphs() + " subgraphs, the model has "
                    + model.subgraphs().size());
        }
        Map<Integer, Long> offsets = offline(plan);
        List<BufferSet.Buffer> baked = new ArrayList<>();
        long total = totalBytes();
        for (Entry e : entries) {
            Long offset = offsets.get(e.id());
            if (offset == null) {
                continue;
            }
            if (offset % alignment != 0) {
                throw new InvalidPlanException(where + ": " + describe(e.id()) + " at offset " + offset
                        + ", not a multiple of TFLM's alignment of " + alignment);
            }
            if (offset + e.size() > total) {
                throw new InvalidPlanException(where + ": " + describe(e.id()) + " at bytes " + offset + ".."
                        + (offset + e.size()) + ", beyond the " + total + " bytes every buffer of the model takes end "
                        + "to end: an arena inflated for nothing");
            }
            baked.add(new BufferSet.Buffer(e.id(), e.size(), e.first(), e.last()));
        }
        try {
            new BufferSet(baked, steps, alignment).validate(baked.stream().mapToLong(b -> offsets.get(b.id()))
                    .toArray(), this::describe);
        } catch (InvalidPlanException e) {
            throw new InvalidPlanException(where + ": " + e.getMessage());
        }
    }

    /** What every buffer that needs allocating takes, laid end to end. */
    public long totalBytes() {
        return entries.stream().filter(Entry::needsAllocating).mapToLong(Entry::size).sum();
    }

    /** Walks the subgraphs as MarkAllocationLifetimes does, from subgraph 0, on one scope counter. */
    private static final class Marker {
        private final TfliteModel model;
        private final int[] offsets;
        private final int[] first;
        private final int[] last;
        private final boolean[] marking;
        private int scope;

        Marker(TfliteModel model) {
            this.model = model;
            offsets = new int[model.subgraphs().size()];
            int total = 0;
            for (TfliteSubgraph s : model.subgraphs()) {
                offsets[s.index()] = total;
                total += s.tensors().size();
            }
            first = new int[total];
            last = new int[total];
            Arrays.fill(first, UNINITIALIZED);
            Arrays.fill(last, UNINITIALIZED);
            marking = new boolean[model.subgraphs().size()];
        }

        TflmAllocations mark(int alignment) {
            subgraph(0);
            List<Entry> entries = new ArrayList<>(first.length);
            for (TfliteSubgraph s : model.subgraphs()) {
                for (TfliteTensor t : s.tensors()) {
                    int id = offsets[s.index()] + t.index();
                    entries.add(entry(id, s, t, alignment));
                }
            }
            return new TflmAllocations(model, alignment, entries, offsets, scope + 1);
        }

        private Entry entry(int id, TfliteSubgraph s, TfliteTensor t, int alignment) {
            long bytes = bytes(s, t);
            Online online = null;
            if (t.constant()) {
                online = Online.CONSTANT;
            } else if (t.variable()) {
                online = Online.VARIABLE;
            } else if (bytes == 0) {
                online = Online.EMPTY;
            } else if (first[id] == UNINITIALIZED) {
                online = Online.NO_LIFETIME;
            }
            return new Entry(id, s.index(), t.index(), t.name(), bytes, SimpleMemoryArena.alignUp(bytes, alignment),
                    first[id], last[id], online);
        }

        /**
         * TfLiteEvalTensorByteLength, which TFLM asks of every tensor, constants too: elements times
         * TfLiteTypeSizeOf, which gives RESOURCE 4 bytes and INT4 one byte an element (TFLM keeps INT4 unpacked),
         * and fails for a type without a fixed size.
         */
        private static long bytes(TfliteSubgraph s, TfliteTensor t) {
            int size = t.type() == TensorType.RESOURCE ? Integer.BYTES : t.type() == TensorType.INT4 ? 1
                    : t.type() == null ? 0 : t.type().elementBytes();
            if (size == 0) {
                throw new InvalidPlanException("subgraph " + s.index() + ", tensor " + t.index() + " ('" + t.name()
                        + "'): type " + t.typeName() + " has no size TFLM knows (TfLiteTypeSizeOf fails for it), so "
                        + "TFLM cannot allocate the model");
            }
            return Math.multiplyExact(t.elements(), size);
        }

        private void subgraph(int index) {
            if (marking[index]) {
                throw new InvalidPlanException("subgraph " + index + " calls itself through control flow, which "
                        + "TFLM's planner cannot mark");
            }
            marking[index] = true;
            TfliteSubgraph s = model.subgraph(index);
            int base = offsets[index];
            for (int input : s.inputs()) {
                if (input >= 0) {
                    created(base + input);
                    used(base + input);
                }
            }
            for (TfliteOperator op : s.operators()) {
                scope++;
                for (int output : op.outputs()) {
                    if (output >= 0) {
                        created(base + output);
                    }
                }
                for (int called : op.subgraphs()) {
                    scope++;
                    subgraph(called);
                }
                for (int input : op.inputs()) {
                    if (input >= 0) {
                        used(base + input);
                    }
                }
                for (int output : op.outputs()) {
                    if (output >= 0) {
                        used(base + output);
                    }
                }
            }
            for (int output : s.outputs()) {
                if (output >= 0) {
                    created(base + output);
                    used(base + output);
                }
            }
            marking[index] = false;
        }

        private void created(int id) {
            if (first[id] == UNINITIALIZED) {
                first[id] = scope;
            }
        }

        private void used(int id) {
            last[id] = scope;
        }
    }
}
