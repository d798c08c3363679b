package dev.tflitearena.bridge;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One native region holding the persistent tensors that every interpreter of a model, in one configuration,
 * computes to the same bytes: what {@link ConstantDerived} names and two interpreters proved equal. Each
 * interpreter sharing it warms up on a private copy laid out the same way ({@link WarmUp}), so that its
 * kernels' one write of those tensors lands there; once its bytes are checked equal to the region's, its
 * tensors point into the region and the copy is freed. Nothing writes the region after it is filled, so
 * interpreters may read it concurrently. Interpreters pointing into it keep it alive until they close.
 */
public final class SharedConstants extends SharedNativeResource {
    /** One shared tensor: its index in the main subgraph, the rule that made it a candidate, its place. */
    public record Entry(int tensor, String rule, long offset, long bytes) {
    }

    /** A candidate left private: its bytes differed between the two interpreters. */
    public record Unproved(int tensor, String rule, long bytes) {
    }

    private final String model;
    private final List<Entry> entries;
    private final List<Unproved> unproved;
    private final long size;
    private final Pointer allocation;
    private final BytePointer region;

    private SharedConstants(String model, List<Entry> entries, List<Unproved> unproved, long size) {
        this.model = model;
        this.entries = List.copyOf(entries);
        this.unproved = List.copyOf(unproved);
        this.size = size;
        this.allocation = Pointer.malloc(Math.max(size, 1) + JavaArena.ALIGNMENT);
        if (allocation == null || allocation.isNull()) {
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
        Map<Integer, String> candidates = ConstantDerived.candidates(graph);
        long seed = 1;
        for (NativeInterpreter interpreter : List.of(first, second)) {
            for (int tensor : candidates.keySet()) {
                TfLiteTensor t = interpreter.live().tensor(tensor);
                Pointer.memset(t.data().raw(), 0, t.bytes());
            }
            SeededInputs.feed(seed++, interpreter);
            interpreter.invoke();
        }
        Subgraph main = graph.subgraphs().get(0);
        List<Entry> entries = new ArrayList<>();
        List<Unproved> unproved = new ArrayList<>();
        long end = 0;
        for (Map.Entry<Integer, String> candidate : candidates.entrySet()) {
            int tensor = candidate.getKey();
            long bytes = main.tensor(tensor).bytes();
            if (bytes == 0) {
                continue;
            }
            if (!data(first, tensor).equals(data(second, tensor))) {
                unproved.add(new Unproved(tensor, candidate.getValue(), bytes));
                continue;
            }
            long offset = JavaArena.alignUp(end);
            entries.add(new Entry(tensor, candidate.getValue(), offset, bytes));
            end = offset + bytes;
        }
        SharedConstants shared = new SharedConstants(first.model().path().toString(), entries, unproved, end);
        for (Entry e : entries) {
            Pointer.memcpy(shared.pointer(e), first.live().tensor(e.tensor()).data().raw(), e.bytes());
        }
        return shared;
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

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * The graph with the shared tensors out of the arenas, as a Java planner must see it: TFLite's planner
     * skips them too, since the handover gives them custom allocations.
     */
    public Graph withoutSharedTensors(Graph graph) {
        Subgraph main = graph.subgraphs().get(0);
        List<Tensor> tensors = new ArrayList<>(main.tensors());
        for (Entry e : entries) {
            Tensor t = tensors.get(e.tensor());
            tensors.set(e.tensor(), new Tensor(t.index(), t.name(), t.bytes(), Allocation.CUSTOM, t.variable(),
                    t.type(), t.shape()));
        }
        List<Subgraph> subgraphs = new ArrayList<>(graph.subgraphs());
        subgraphs.set(0, new Subgraph(main.index(), main.name(), tensors, main.nodes(), main.inputs(), main.outputs(),
                main.variables()));
        return new Graph(graph.options(), Collections.unmodifiableList(subgraphs));
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

    private static ByteBuffer data(NativeInterpreter interpreter, int tensor) {
        TfLiteTensor t = interpreter.live().tensor(tensor);
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
    }

    @Override
    protected String describe() {
        return "shared constants of " + model;
    }
}
