package dev.tflitearena.bridge;

import dev.tflitearena.graph.Node;
import dev.tflitearena.plan.Placement;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteContext;
import org.bytedeco.tensorflowlite.TfLiteCustomAllocation;
import org.bytedeco.tensorflowlite.TfLiteNode;
import org.bytedeco.tensorflowlite.TfLiteRegistration;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRw;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRwPersistent;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCustom;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteError;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteInt8;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * Hands a Java plan to a native interpreter. Temporaries and the tensors kernels turn persistent only exist
 * once every op is prepared, and the native planner runs right after that, so a custom allocation set before
 * {@code AllocateTensors()} misses them and one set after it leaves the native arena allocated. The handover
 * therefore appends a no-op node to each subgraph: the last to be prepared, its prepare gives every arena
 * tensor its custom allocation in the Java arena, and the native planner that follows finds nothing left.
 * The tensors an interpreter shares with others of its model ({@link SharedConstants}) get theirs in its
 * warm-up copy, the same way; without a Java plan, they are all it hands over.
 *
 * <p>One registration serves every interpreter: JavaCPP callbacks are few per class, so the prepare callback
 * finds the subgraph it was called for by the address of its TfLiteContext.
 */
final class PlanHandover {
    static final String OP_NAME = "TfLiteArenaHandover";

    private static final Set<String> CONTROL_FLOW_OPS = Set.of("WHILE", "IF", "CALL_ONCE", "STABLEHLO_WHILE",
            "STABLEHLO_CASE");
    private static final Map<Long, PlanHandover> BY_CONTEXT = new ConcurrentHashMap<>();
    // The native registration only holds function pointers: these fields keep the callbacks (and the name)
    // from being collected, which would leave TFLite calling freed thunks.
    private static final Prepare PREPARE = new Prepare();
    private static final BytePointer OP_NAME_NATIVE = new BytePointer(OP_NAME);
    private static final TfLiteRegistration REGISTRATION = CustomOps.registration(OP_NAME_NATIVE, PREPARE);

    private final Subgraph subgraph;
    private final int subgraphIndex;
    /** Null when TFLite plans the arenas. */
    private final JavaArena arena;
    /** Null when the interpreter shares nothing. */
    private final SharedConstants.WarmUp warmUp;
    private final long context;
    private final Set<Integer> controlFlowTensors;
    private RuntimeException failure;
    private int handedOver;

    private PlanHandover(Subgraph subgraph, int subgraphIndex, JavaArena arena, SharedConstants.WarmUp warmUp) {
        this.subgraph = subgraph;
        this.subgraphIndex = subgraphIndex;
        this.arena = arena;
        this.warmUp = subgraphIndex == 0 ? warmUp : null;
        this.context = subgraph.context().address();
        this.controlFlowTensors = arena == null ? Set.of()
                : controlFlowTensors(arena.graph().subgraphs().get(subgraphIndex));
    }

    /**
     * Appends the handover node to every subgraph; call before the first {@code AllocateTensors()}. Either
     * may be null, not both: {@code arena} when TFLite plans, {@code warmUp} when nothing is shared.
     */
    static PlanHandover[] install(Interpreter interpreter, JavaArena arena, SharedConstants.WarmUp warmUp) {
        int count = (int) interpreter.subgraphs_size();
        if (arena != null && count != arena.plan().subgraphs().size()) {
            throw new NativeException("the plan covers " + arena.plan().subgraphs().size()
                    + " subgraphs, the interpreter has " + count + ": it was made for another model");
        }
        PlanHandover[] handovers = new PlanHandover[count];
        for (int s = 0; s < count; s++) {
            Subgraph subgraph = interpreter.subgraph(s);
            handovers[s] = new PlanHandover(subgraph, s, arena, warmUp);
            BY_CONTEXT.put(handovers[s].context, handovers[s]);
            int[] nodeIndex = new int[1];
            TfLiteStatus.check(subgraph.AddNodeWithParameters(new int[0], new int[0], new int[0],
                    (BytePointer) null, 0, null, REGISTRATION, nodeIndex), "subgraph " + s + ": adding " + OP_NAME);
        }
        return handovers;
    }

    /** After {@code AllocateTensors()}: rethrows what the prepare callback refused, if anything. */
    void rethrowFailure() {
        if (failure != null) {
            throw failure;
        }
    }

    /** After a successful {@code AllocateTensors()}: checks every tensor's address; returns how many moved. */
    int finish() {
        for (Placement p : arena == null ? List.<Placement>of() : arena.plan().subgraphs().get(subgraphIndex).placements()) {
            if (!handsOver(p)) {
                continue;
            }
            TfLiteTensor tensor = subgraph.tensor(p.tensor());
            checkAt(tensor, p.tensor(), arena.pointer(subgraphIndex, p).address(), "its planned address in the Java arena");
            if (tensor.is_variable()) {
                resetVariable(tensor);
            }
        }
        for (SharedConstants.Entry e : warmUp == null ? List.<SharedConstants.Entry>of() : warmUp.shared().entries()) {
            checkAt(subgraph.tensor(e.tensor()), e.tensor(), warmUp.pointer(e).address(), "its warm-up copy");
        }
        return handedOver;
    }

    private void checkAt(TfLiteTensor tensor, int index, long expected, String where) {
        if (tensor.allocation_type() != kTfLiteCustom || NativeTensors.dataAddress(tensor) != expected) {
            throw new NativeException("subgraph " + subgraphIndex + ", tensor " + index
                    + ": after AllocateTensors it is not at " + where);
        }
    }

    /**
     * Whether the tensor goes to the Java arena. Control flow keeps its tensors native. A WHILE or IF kernel
     * copies the descriptions of its inputs and outputs, allocation type included, to and from the subgraphs
     * it calls, and prepares those subgraphs again when it resizes them; TFLite then refuses a tensor marked
     * custom that the subgraph at hand did not register (VerifyCustomAllocationForTensor in core/subgraph.cc,
     * seen failing on a WHILE whose body's own tensors were handed over). So the subgraphs that control flow
     * calls, and the tensors a control-flow node reads or writes, stay in TFLite's arenas.
     */
    boolean handsOver(Placement p) {
        return p.hasMemory() && subgraphIndex == 0 && !controlFlowTensors.contains(p.tensor());
    }

    static Set<Integer> controlFlowTensors(dev.tflitearena.graph.Subgraph subgraph) {
        Set<Integer> tensors = new HashSet<>();
        for (Node node : subgraph.nodes()) {
            if (CONTROL_FLOW_OPS.contains(node.op())) {
                Arrays.stream(node.inputs()).forEach(tensors::add);
                Arrays.stream(node.outputs()).forEach(tensors::add);
            }
        }
        return tensors;
    }

    /**
     * TFLite zeroes variable tensors after allocating, but skips custom-allocated ones (Subgraph::
     * ResetVariableTensors), so the handover does what tflite::ResetVariableTensor would.
     */
    private static void resetVariable(TfLiteTensor tensor) {
        int value = tensor.type() == kTfLiteInt8 ? tensor.params().zero_point() : 0;
        Pointer.memset(tensor.data().raw(), value, tensor.bytes());
    }

    void uninstall() {
        BY_CONTEXT.remove(context);
    }

    private int handOver() {
        if (arena != null) {
            int plannedTensors = arena.graph().subgraphs().get(subgraphIndex).tensors().size();
            if (subgraph.tensors_size() != plannedTensors) {
                throw new NativeException("subgraph " + subgraphIndex + " has " + subgraph.tensors_size()
                        + " tensors once prepared, the plan's graph " + plannedTensors + ": it was made for another model");
            }
            for (Placement p : arena.plan().subgraphs().get(subgraphIndex).placements()) {
                if (handsOver(p)) {
                    giveCustomAllocation(p.tensor(), arena.pointer(subgraphIndex, p), p.bytes(), "the plan");
                }
            }
        }
        if (warmUp != null) {
            for (SharedConstants.Entry e : warmUp.shared().entries()) {
                if (subgraph.tensor(e.tensor()).allocation_type() != kTfLiteArenaRwPersistent) {
                    throw new NativeException("subgraph 0, tensor " + e.tensor() + " is not persistent once prepared,"
                            + " unlike in the interpreters that proved it shared: another model or configuration");
                }
                giveCustomAllocation(e.tensor(), warmUp.pointer(e), e.bytes(), "the shared constants");
            }
        }
        return kTfLiteOk;
    }

    private void giveCustomAllocation(int index, Pointer memory, long bytes, String source) {
        TfLiteTensor tensor = subgraph.tensor(index);
        int kind = tensor.allocation_type();
        String where = "subgraph " + subgraphIndex + ", tensor " + index;
        if (kind != kTfLiteArenaRw && kind != kTfLiteArenaRwPersistent && kind != kTfLiteCustom) {
            throw new NativeException(where + " is " + NativeTensors.allocation(kind).jsonName()
                    + " once prepared, not an arena tensor as in the plan's graph");
        }
        if (tensor.bytes() > bytes) {
            throw new NativeException(where + " needs " + tensor.bytes() + " bytes once prepared, " + source
                    + " gives it " + bytes + ": it was made for another model or shape");
        }
        setCustomAllocation(subgraph, index, memory, bytes, where);
        handedOver++;
    }

    /** Points a tensor at memory the interpreter does not own; also after allocation, where it only moves it. */
    static void setCustomAllocation(Subgraph subgraph, int index, Pointer memory, long bytes, String where) {
        try (TfLiteCustomAllocation allocation = new TfLiteCustomAllocation()) {
            allocation.data(memory).bytes(bytes);
            TfLiteStatus.check(subgraph.SetCustomAllocationForTensor(index, allocation),
                    where + ": SetCustomAllocationForTensor");
        }
    }

    /** Gives the prepared subgraph's arena tensors to the Java arena; failures wait for AllocateTensors to return. */
    private static final class Prepare extends TfLiteRegistration.Prepare_TfLiteContext_TfLiteNode {
        @Override
        public int call(TfLiteContext context, TfLiteNode node) {
            PlanHandover handover = BY_CONTEXT.get(context.address());
            if (handover == null) {
                return kTfLiteError;
            }
            try {
                handover.handedOver = 0;
                return handover.handOver();
            } catch (RuntimeException | Error e) {
                // An exception must not cross the native frames of AllocateTensors; it is rethrown after.
                handover.failure = e instanceof RuntimeException r ? r : new NativeException(e.toString());
                return kTfLiteError;
            }
        }
    }

}
