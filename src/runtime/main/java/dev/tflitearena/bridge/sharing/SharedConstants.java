package dev.tflitearena.bridge.sharing;

import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.handover.TensorMemory;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.SharedNativeResource;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

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

    /**
     * An empty region of {@code size} bytes for the entries, which the caller fills through {@link #pointer}
     * ({@link dev.tflitearena.bridge.check.ConstantProof} proves them); it owns the sparsity copies from now on.
     */
    public SharedConstants(String model, List<Entry> entries, List<Unproved> unproved, List<Sparsity> sparsity,
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

    public BytePointer pointer(Entry e) {
        return region.getPointer(e.offset());
    }

    /** A private copy for one interpreter's warm-up, laid out as the region. */
    public WarmUp warmUp() {
        checkOpen();
        return new WarmUp();
    }

    public final class WarmUp {
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

        private BytePointer pointer(Entry e) {
            return copy.getPointer(e.offset());
        }

        /** The copy's memory of each subgraph's shared tensors, by subgraph: what the handover gives them. */
        public Map<Integer, TensorMemory> tensorMemory() {
            Map<Integer, TensorMemory> memory = new TreeMap<>();
            for (int subgraph : entries.stream().map(Entry::subgraph).distinct().toList()) {
                List<Entry> shared = entries(subgraph);
                TensorMemory out = new TensorMemory(new int[shared.size()], new long[shared.size()],
                        new long[shared.size()]);
                for (int i = 0; i < shared.size(); i++) {
                    Entry e = shared.get(i);
                    out.tensors()[i] = e.tensor();
                    out.addresses()[i] = pointer(e).address();
                    out.bytes()[i] = e.bytes();
                }
                memory.put(subgraph, out);
            }
            return memory;
        }

        /** The entries whose warmed-up bytes differ from the region's. */
        public List<Entry> differing() {
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
        public void free() {
            Pointer.memset(copy, JavaArena.POISON, size);
            Pointer.free(allocation);
        }
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
