package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.sharing.ConstantDerived;
import dev.tflitearena.bridge.sharing.SharedConstants;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Two interpreters of one model, run side by side on different seeded inputs, prove which of the tensors
 * {@link ConstantDerived} names they compute to the same bytes: those go into a {@link SharedConstants}
 * region, the others are left private as unproved.
 */
public final class ConstantProof {
    private ConstantProof() {
    }

    /** The proof on two interpreters of {@code model} that TFLite allocates in {@code settings}, closed after. */
    public static SharedConstants prove(NativeModel model, InterpreterSettings settings) {
        try (NativeInterpreter first = NativeInterpreter.build(model, settings);
             NativeInterpreter second = NativeInterpreter.build(model, settings)) {
            first.allocateTensors();
            second.allocateTensors();
            return prove(first, second);
        }
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
        List<SharedConstants.Entry> entries = new ArrayList<>();
        List<SharedConstants.Unproved> unproved = new ArrayList<>();
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
                    unproved.add(new SharedConstants.Unproved(s, tensor, candidate.getValue(), bytes));
                    continue;
                }
                long offset = JavaArena.alignUp(end);
                entries.add(new SharedConstants.Entry(s, tensor, candidate.getValue(), offset, bytes));
                end = offset + bytes;
            }
        }
        SharedConstants shared = new SharedConstants(first.model().path().toString(), entries, unproved,
                sparsityCopies(first), end);
        for (SharedConstants.Entry e : entries) {
            Pointer.memcpy(shared.pointer(e), first.live().subgraph(e.subgraph()).tensor(e.tensor()).data().raw(),
                    e.bytes());
        }
        return shared;
    }

    /**
     * Copies of the main subgraph's sparse index structures, which every interpreter reads and none writes;
     * none without the native layer, which copies them.
     */
    private static List<SharedConstants.Sparsity> sparsityCopies(NativeInterpreter interpreter) {
        if (!NativeLayer.available()) {
            return List.of();
        }
        long[] copies = NativeLayer.copySparsity(interpreter.live().subgraph(0).context().address());
        List<SharedConstants.Sparsity> sparsity = new ArrayList<>();
        for (int i = 0; i < copies.length; i += 3) {
            sparsity.add(new SharedConstants.Sparsity((int) copies[i], copies[i + 1], copies[i + 2]));
        }
        return sparsity;
    }

    private static ByteBuffer data(NativeInterpreter interpreter, int subgraph, int tensor) {
        TfLiteTensor t = interpreter.live().subgraph(subgraph).tensor(tensor);
        return new BytePointer(t.data().raw()).capacity(t.bytes()).limit(t.bytes()).asByteBuffer();
    }
}
