package dev.tflitearena.bridge;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One native region holding the persistent tensors that every interpreter of a model, in one configuration,
 * computes to the same bytes: what {@link ConstantDerived} names and two interpreters proved equal. Each
 * interpreter sharing it warms up on a private copy laid out the same way ({@link WarmUp}), so that its
 * kernels' one write of those tensors lands there; once its bytes are checked equal to the region's, its
 * tensors point into the region and the copy is freed. Nothing writes the region after it is filled, so
 * interpreters may read it concurrently. Sparse tensors' index structures, which TFLite copies per interpreter,
 * are shared the same way ({@link Sparsity}). Interpreters pointing into it keep it alive until they close.
 */
public final class SharedConstants extends SharedNativeResource {
    /** One shared tensor: its subgraph and index there, the rule that made it a candidate, its place. */
    public record Entry(int subgraph, int tensor, String rule, long offset, long bytes) {
    }

    /** A candidate left private: its bytes differed between the two interpreters. */
    public record Unproved(int subgraph, int tensor, String rule, long bytes) {
    }

    /**
     * A sparse tensor's index structure (TfLiteSparsity), which TFLite's InterpreterBuilder copies out of the
     * model for each interpreter: one copy at {@code address} serves them all (native/shared_sparsity.cc).
     */
    public record Sparsity(int tensor, long address, long bytes) {
    }

    private final String model;
    private final List<Entry> entries;
    private final List<Unproved> unproved;
    private final List<Sparsity> sparsity;
    private final long size;
    private final Pointer allocation;
    private final BytePointer region;

    private SharedConstants(String model, List<Entry> entries, List<Unproved> unproved, List<Sparsity> sparsity,
                            long size) {
        this.model = model;
        this.entries = List.copyOf(entries);
        this.unproved = List.copyOf(unproved);
        this.sparsity = List.copyOf(sparsity);
        this.size = size;
        this.allocation = Pointer.malloc(Math.max(size, 1) + JavaArena.ALIGNMENT);
        if (allocation == null || allocation.isNull()) {
            sparsity.forEach(c -> NativeLayer.freeSparsity(c.address()));
            throw new NativeException("cannot allocate " + size + " bytes for the shared constants of " + model);
        }
        this.region = JavaArena.aligned(allocation);
    }

    /**
     * Proves which candidates two interpreters of one model and configuration agree on, and copies the first's
     * bytes of those into a new region. Both must be allocated by TFLite and not yet invoked: their candidates
     * are zeroed, so that one its kernel never writes compares equal, and each is invoked once, on its own
     * inputs.
     */
    public static SharedConstants prove(NativeInterpreter first, NativeInterpreter second) {
        Graph graph = first.snapshot();
        List<Map<Integer, String>> candidates = new ArrayList<>();
        for (int s = 0; s < graph.subgraphs().size(); s++) {
            Map<Integer, String> found = ConstantDerived.whyNotShared(graph, s) == null
                    ? ConstantDerived.candidates(graph, s) : new TreeMap<>();
            // A subgraph TFLite prepares only during invoke (CALL_ONCE's) has no memory yet to compare or share.
            int subgraph = s;
            found.keySet().removeIf(t -> first.live().subgraph(subgraph).tensor(t).data().raw() == null
                    || second.live().subgraph(subgraph).tensor(t).data().raw() == null);
            candidates.add(found);
        }
        long seed = 1;
        for (NativeInterpreter interpreter : List.of(first, second)) {
            for (int s = 0; s < candidates.size(); s++) {
                for (int tensor : candidates.get(s).keySet()) {
                    TfLiteTensor t = interpreter.live().subgraph(s).tensor(tensor);
                    Pointer.memset(t.data().raw(), 0, t.bytes());
                }
            }
            SeededInputs.feed(seed++, interpreter);
            interpreter.invoke();
        }
        List<Entry> entries = new ArrayList<>();
        List<Unproved> unproved = new ArrayList<>();
        long end = 0;
        for (int s = 0; s < candidates.size(); s++) {
            Subgraph subgraph = graph.subgraphs().get(s);
            for (Map.Entry<Integer, String> candidate : candidates.get(s).entrySet()) {
                int tensor = candidate.getKey();
                long bytes = subgraph.tensor(tensor).bytes();
                if (bytes == 0) {
                    continue;
                }
                if (!data(first, s, tensor).equals(data(second, s, tensor))) {
                    unproved.add(new Unproved(s, tensor, candidate.getValue(), bytes));
                    continue;
                }
                long offset = JavaArena.alignUp(end);
                entries.add(new Entry(s, tensor, candidate.getValue(), offset, bytes));
                end = offset + bytes;
            }
        }
        SharedConstants shared = new SharedConstants(first.model().path().toString(), entries, unproved,
                sparsityCopies(first), end);
        for (Entry e : entries) {
            Pointer.memcpy(shared.pointer(e), first.live().subgraph(e.subgraph()).tensor(e.tensor()).data().raw(),
                    e.bytes());
        }
        return shared;
    }

    /**
     * Copies of the main subgraph's sparse index structures, which every interpreter reads and none writes;
     * none without the native layer, which copies them.
     */
    private static List<Sparsity> sparsityCopies(NativeInterpreter interpreter) {
        if (!NativeLayer.available()) {
            return List.of();
        }
        long[] copies = NativeLayer.copySparsity(interpreter.live().subgraph(0).context().address());
        List<Sparsity> sparsity = new ArrayList<>();
        for (int i = 0; i < copies.length; i += 3) {
            sparsity.add(new Sparsity((int) copies[i], copies[i + 1], copies[i + 2]));
        }
        return sparsity;
    }

    public List<Entry> entries() {
        return entries;
    }

    public List<Unproved> unproved() {
        return unproved;
    }

    /** Bytes of the shared tensors with their alignment padding. */
    public long size() {
        return size;
    }

    public List<Sparsity> sparsity() {
        return sparsity;
    }

    /** Bytes of the shared sparse index structures, as malloc counts them. */
    public long sparsityBytes() {
        return sparsity.stream().mapToLong(Sparsity::bytes).sum();
    }

    public boolean isEmpty() {
        return entries.isEmpty() && sparsity.isEmpty();
    }

    /**
     * The graph with the shared tensors out of the arenas, as a Java planner must see it: TFLite's planner
     * skips them too, since the handover gives them custom allocations.
     */
    public Graph withoutSharedTensors(Graph graph) {
        List<Subgraph> subgraphs = new ArrayList<>(graph.subgraphs());
        for (int s = 0; s < subgraphs.size(); s++) {
            Subgraph subgraph = subgraphs.get(s);
            List<Tensor> tensors = new ArrayList<>(subgraph.tensors());
            for (Entry e : entries(s)) {
                Tensor t = tensors.get(e.tensor());
                tensors.set(e.tensor(), new Tensor(t.index(), t.name(), t.bytes(), Allocation.CUSTOM, t.variable(),
                        t.type(), t.shape()));
            }
            subgraphs.set(s, new Subgraph(subgraph.index(), subgraph.name(), tensors, subgraph.nodes(),
                    subgraph.inputs(), subgraph.outputs(), subgraph.variables()));
        }
        return new Graph(graph.options(), Collections.unmodifiableList(subgraphs));
    }

    /** The entries of one subgraph. */
    List<Entry> entries(int subgraph) {
        return entries.stream().filter(e -> e.subgraph() == subgraph).toList();
    }

    /** The region's bytes, for tests that prove nothing writes them after they were filled. */
    public byte[] copyOfRegion() {
        checkOpen();
        byte[] copy = new byte[Math.toIntExact(size)];
        view(region, size).get(copy);
        return copy;
    }

    BytePointer pointer(Entry e) {
        return region.getPointer(e.offset());
    }

    /** A private copy for one interpreter's warm-up, laid out as the region. */
    WarmUp warmUp() {
        checkOpen();
        return new WarmUp();
    }

    final class WarmUp {
        private final Pointer allocation = Pointer.malloc(Math.max(size, 1) + JavaArena.ALIGNMENT);
        private final BytePointer copy;

        private WarmUp() {
            if (allocation == null || allocation.isNull()) {
                throw new NativeException("cannot allocate " + size + " bytes to warm up an interpreter of " + model);
            }
            copy = JavaArena.aligned(allocation);
            // Zeroed as the proof's candidates were: a tensor its kernel never writes then equals the region's.
            Pointer.memset(copy, 0, size);
        }

        SharedConstants shared() {
            return SharedConstants.this;
        }

        BytePointer pointer(Entry e) {
            return copy.getPointer(e.offset());
        }

        /** The entries whose warmed-up bytes differ from the region's. */
        List<Entry> differing() {
            List<Entry> differ = new ArrayList<>();
            for (Entry e : entries) {
                if (!view(pointer(e), e.bytes()).equals(view(SharedConstants.this.pointer(e), e.bytes()))) {
                    differ.add(e);
                }
            }
            return differ;
        }

        /**
         * Frees the copy, poisoned first: a tensor left pointing at it would then give wrong outputs rather
         * than the right bytes freed memory often still holds.
         */
        void free() {
            Pointer.memset(copy, DifferentialRun.POISON, size);
            Pointer.free(allocation);
        }
    }

    private static ByteBuffer data(NativeInterpreter interpreter, int subgraph, int tensor) {
        TfLiteTensor t = interpreter.live().subgraph(subgraph).tensor(tensor);
        return view(t.data().raw(), t.bytes());
    }

    private static ByteBuffer view(BytePointer pointer, long bytes) {
        return new BytePointer(pointer).capacity(bytes).limit(bytes).asByteBuffer();
    }

    private void checkOpen() {
        if (isClosed()) {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    @Override
    protected void free() {
        Pointer.free(allocation);
        sparsity.forEach(c -> NativeLayer.freeSparsity(c.address()));
    }

    @Override
    protected String describe() {
        return "shared constants of " + model;
    }
}
