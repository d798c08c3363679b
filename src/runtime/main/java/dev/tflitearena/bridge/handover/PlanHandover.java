package dev.tflitearena.bridge.handover;

import dev.tflitearena.bridge.presets.CustomOps;
import dev.tflitearena.bridge.presets.NativeAddress;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.nativelayer.NativeLayer;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRw;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRwPersistent;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCustom;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCustomAllocationFlagsNone;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCustomAllocationFlagsSkipAlignCheck;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteError;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteInt8;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * Hands a Java plan to a native interpreter. Temporaries and the tensors kernels turn persistent only exist
 * once every op is prepared, and the native planner runs right after that, so a custom allocation set before
 * {@code AllocateTensors()} misses them and one set after it leaves the native arena allocated. The handover
 * therefore appends a no-op node to each subgraph: the last to be prepared, its prepare gives every arena
 * tensor its custom allocation in the Java arena, and the native planner that follows finds nothing left.
 * The tensors an interpreter shares with others of its model get theirs in its warm-up copy of the shared
 * region ({@link dev.tflitearena.bridge.sharing.SharedConstants}), the same way; without a Java plan, they are
 * all it hands over.
 *
 * <p>One registration serves every interpreter: JavaCPP callbacks are few per class, so the prepare callback
 * finds the subgraph it was called for by the address of its TfLiteContext.
 */
public final class PlanHandover {
    static final String OP_NAME = "TfLiteArenaHandover";

    // The refusals of NativeLayer.customAllocations (native/handover.cc).
    private static final int NO_SUCH_TENSOR = 0;
    private static final int NOT_PERSISTENT = 1;
    private static final int NOT_ARENA = 2;
    private static final int TOO_LARGE = 3;

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
    /** The warm-up copy's memory of this subgraph's shared tensors; null when it shares none. */
    private final TensorMemory warmUp;
    private final long context;
    /** The plan's part for this subgraph; null when TFLite plans the arenas. */
    private final HandoverPlan.Subgraph planned;
    /** The inputs control flow lends its caller's memory (see {@link LentTensors}), and every subgraph's handover. */
    private final List<LentTensors.Lent> lent;
    private final PlanHandover[] all;
    /** Whether the handover goes through the native layer's batched calls. */
    private final boolean bulk = NativeLayer.available();
    /** The tensors handed over from the plan, and from the warm-up copy; set at the first prepare. */
    private TensorMemory fromPlan;
    private TensorMemory shared;
    private RuntimeException failure;
    private int handedOver;

    private PlanHandover(Subgraph subgraph, int subgraphIndex, JavaArena arena, TensorMemory warmUp,
                         List<LentTensors.Lent> lent, PlanHandover[] all) {
        this.subgraph = subgraph;
        this.subgraphIndex = subgraphIndex;
        this.arena = arena;
        this.warmUp = warmUp == null || warmUp.tensors().length == 0 ? null : warmUp;
        this.context = subgraph.context().address();
        this.planned = arena == null ? null : arena.handover().subgraphs()[subgraphIndex];
        this.lent = lent;
        this.all = all;
    }

    /**
     * Appends the handover node to every subgraph; call before the first {@code AllocateTensors()}. Either
     * may be null, not both: {@code arena} when TFLite plans, {@code warmUp} (the warm-up copy's memory of
     * the shared tensors, by subgraph) when nothing is shared. {@code model} names the model in messages.
     */
    public static PlanHandover[] install(Interpreter interpreter, JavaArena arena, Map<Integer, TensorMemory> warmUp,
                                         String model) {
        if (arena != null && arena.handover().computedShapeReshape()) {
            throw new NativeException(model + ": a Java plan cannot drive a graph with a RESHAPE whose new "
                    + "shape an op computes: TFLite stops preparing at it without marking a tensor dynamic, and "
                    + "prepares the nodes after it during invoke, after the handover (see PlanHandover)");
        }
        int count = (int) interpreter.subgraphs_size();
        if (arena != null && count != arena.plan().subgraphs().size()) {
            throw new NativeException("the plan covers " + arena.plan().subgraphs().size()
                    + " subgraphs, the interpreter has " + count + ": it was made for another model");
        }
        PlanHandover[] handovers = new PlanHandover[count];
        // Reading the nodes natively costs JNI crossings per node: only graphs with control flow have lent tensors.
        List<List<LentTensors.Lent>> lent = arena == null || !arena.handover().controlFlow() ? null
                : LentTensors.read(interpreter);
        for (int s = 0; s < count; s++) {
            Subgraph subgraph = interpreter.subgraph(s);
            handovers[s] = new PlanHandover(subgraph, s, arena, warmUp == null ? null : warmUp.get(s),
                    lent == null ? List.of() : lent.get(s), handovers);
            BY_CONTEXT.put(handovers[s].context, handovers[s]);
            int node = CustomOps.append(subgraph, REGISTRATION, "subgraph " + s + ": adding " + OP_NAME);
            handovers[s].prepareBeforeDynamicNode(node);
        }
        return handovers;
    }

    /**
     * With a dynamic-shape op, moves the handover node right before it, so that TFLite prepares it with the
     * nodes it prepares when tensors are allocated; at the end, it would be prepared during Invoke, when the
     * nodes before have run on the native planner's memory.
     */
    private void prepareBeforeDynamicNode(int handoverNode) {
        int firstPreparedInInvoke = planned == null ? Integer.MAX_VALUE : planned.firstPreparedInInvoke();
        // The plan holds each node at most once, so it is no longer than the node count: with no node past
        // firstPreparedInInvoke, the copy of it JavaCPP makes (registering its deallocator reads
        // /proc/self/statm) is not needed.
        if (firstPreparedInInvoke >= subgraph.nodes_size() - 1) {
            return;
        }
        int[] plan = NativeTensors.ints(subgraph.execution_plan());
        if (firstPreparedInInvoke >= plan.length - 1) {
            return;
        }
        int[] moved = new int[plan.length];
        System.arraycopy(plan, 0, moved, 0, firstPreparedInInvoke);
        moved[firstPreparedInInvoke] = handoverNode;
        System.arraycopy(plan, firstPreparedInInvoke, moved, firstPreparedInInvoke + 1,
                plan.length - 1 - firstPreparedInInvoke);
        TfLiteStatus.check(NativeLayer.setExecutionPlan(subgraph.address(), moved),
                "subgraph " + subgraphIndex + ": moving " + OP_NAME + " before node " + firstPreparedInInvoke);
    }

    /** After {@code AllocateTensors()}: rethrows what the prepare callback refused, if anything. */
    public void rethrowFailure() {
        if (failure != null) {
            throw failure;
        }
    }

    /** After a successful {@code AllocateTensors()}: checks every tensor's address; returns how many moved. */
    public int finish() {
        if (fromPlan != null) {
            for (int i : checkAt(fromPlan, "its planned address in the Java arena")) {
                resetVariable(subgraph.tensor(fromPlan.tensors()[i]));
            }
        }
        if (shared != null) {
            checkAt(shared, "its warm-up copy");
        }
        return handedOver;
    }

    /** Refuses unless every tensor of {@code tensors} is custom-allocated at its address; returns the variable ones. */
    private int[] checkAt(TensorMemory tensors, String where) {
        int[] misplacedThenVariables;
        if (bulk) {
            misplacedThenVariables = NativeLayer.customAt(context, tensors.tensors(), tensors.addresses());
        } else {
            IntStream.Builder out = IntStream.builder().add(-1);
            for (int i = 0; i < tensors.tensors().length; i++) {
                TfLiteTensor tensor = subgraph.tensor(tensors.tensors()[i]);
                if (tensor.allocation_type() != kTfLiteCustom
                        || NativeTensors.dataAddress(tensor) != tensors.addresses()[i]) {
                    out = IntStream.builder().add(i);
                    break;
                }
                if (tensor.is_variable()) {
                    out.add(i);
                }
            }
            misplacedThenVariables = out.build().toArray();
        }
        int misplaced = misplacedThenVariables[0];
        if (misplaced >= 0) {
            throw new NativeException("subgraph " + subgraphIndex + ", tensor " + tensors.tensors()[misplaced]
                    + ": after AllocateTensors it is not at " + where);
        }
        return Arrays.copyOfRange(misplacedThenVariables, 1, misplacedThenVariables.length);
    }

    /**
     * TFLite zeroes variable tensors after allocating, but skips custom-allocated ones (Subgraph::
     * ResetVariableTensors), so the handover does what tflite::ResetVariableTensor would.
     */
    private static void resetVariable(TfLiteTensor tensor) {
        int value = tensor.type() == kTfLiteInt8 ? tensor.params().zero_point() : 0;
        Pointer.memset(tensor.data().raw(), value, tensor.bytes());
    }

    public void uninstall() {
        BY_CONTEXT.remove(context);
    }

    private int handOver() {
        if (planned != null && planned.handsOver()) {
            int plannedTensors = planned.tensorCount();
            if (subgraph.tensors_size() != plannedTensors) {
                throw new NativeException("subgraph " + subgraphIndex + " has " + subgraph.tensors_size()
                        + " tensors once prepared, the plan's graph " + plannedTensors + ": it was made for another model");
            }
            if (fromPlan == null) {
                fromPlan = planned();
            }
            giveCustomAllocations(fromPlan, false, "the plan");
            lendCallerMemory();
            if (subgraphIndex > 0) {
                for (int v : planned.variables()) {
                    resetVariable(subgraph.tensor(v));
                }
            }
        }
        if (warmUp != null) {
            shared = warmUp;
            giveCustomAllocations(shared, true, "the shared constants");
        }
        return kTfLiteOk;
    }

    /**
     * Gives each tensor its memory, in one native call when the native layer is in use, else tensor by tensor
     * through the presets; either way refusing, by the same message, a tensor that is no arena tensor (or not a
     * persistent one, with {@code persistentOnly}) or is larger than its memory.
     */
    private void giveCustomAllocations(TensorMemory tensors, boolean persistentOnly, String source) {
        long[] refusal = bulk ? NativeLayer.customAllocations(subgraph.address(), context, tensors.tensors(),
                tensors.addresses(), tensors.bytes(), persistentOnly) : givePerTensor(tensors, persistentOnly);
        if (refusal == null) {
            handedOver += tensors.tensors().length;
            return;
        }
        int i = (int) refusal[0];
        long value = refusal[2];
        String where = "subgraph " + subgraphIndex + ", tensor " + tensors.tensors()[i];
        throw new NativeException(switch ((int) refusal[1]) {
            case NO_SUCH_TENSOR -> where + " does not exist once prepared: the subgraph has " + value + " tensors";
            case NOT_PERSISTENT -> where + " is not persistent once prepared, unlike in the interpreters that"
                    + " proved it shared: another model or configuration";
            case NOT_ARENA -> where + " is " + NativeTensors.allocation((int) value).jsonName()
                    + " once prepared, not an arena tensor as in the plan's graph";
            case TOO_LARGE -> where + " needs " + value + " bytes once prepared, " + source + " gives it "
                    + tensors.bytes()[i] + ": it was made for another model or shape";
            default -> where + ": SetCustomAllocationForTensor failed with TfLiteStatus " + value
                    + " (TFLite's own message, if any, is on standard error)";
        });
    }

    /**
     * Registers each input its control-flow kernel marked custom with the memory of the caller's tensor it is
     * lent (see {@link LentTensors}); the kernel points it there itself before each invoke. A kernel that gives
     * an input memory of its own (older releases) leaves it an arena tensor, handed over from the plan.
     */
    private void lendCallerMemory() {
        for (LentTensors.Lent l : lent) {
            if (subgraph.tensor(l.tensor()).allocation_type() != kTfLiteCustom || planned.placement(l.tensor()) != null) {
                continue;
            }
            long[] memory = all[l.callerSubgraph()].memoryOf(l.callerTensor());
            String where = "subgraph " + subgraphIndex + ", tensor " + l.tensor() + " (lent subgraph "
                    + l.callerSubgraph() + ", tensor " + l.callerTensor() + ")";
            if (memory[0] == 0) {
                throw new NativeException(where + ": the caller's tensor has no memory to lend");
            }
            // A constant lends its bytes in the model, which TFLite aligns to 16 only.
            setCustomAllocation(subgraph, l.tensor(), new NativeAddress(memory[0]), memory[1], where,
                    kTfLiteCustomAllocationFlagsSkipAlignCheck);
        }
    }

    /** {address, bytes} of one of this subgraph's tensors: its planned memory, what it is lent, or its own. */
    private long[] memoryOf(int tensor) {
        Placement p = planned.placement(tensor);
        if (p != null) {
            return new long[] {arena.address(subgraphIndex, p), p.bytes()};
        }
        for (LentTensors.Lent l : lent) {
            if (l.tensor() == tensor) {
                return all[l.callerSubgraph()].memoryOf(l.callerTensor());
            }
        }
        TfLiteTensor own = subgraph.tensor(tensor);
        return new long[] {NativeTensors.dataAddress(own), own.bytes()};
    }

    /** The per-field path of {@link NativeLayer#customAllocations}, with its answer. */
    private long[] givePerTensor(TensorMemory tensors, boolean persistentOnly) {
        for (int i = 0; i < tensors.tensors().length; i++) {
            TfLiteTensor tensor = subgraph.tensor(tensors.tensors()[i]);
            int kind = tensor.allocation_type();
            if (persistentOnly && kind != kTfLiteArenaRwPersistent) {
                return new long[] {i, NOT_PERSISTENT, kind};
            }
            if (kind != kTfLiteArenaRw && kind != kTfLiteArenaRwPersistent && kind != kTfLiteCustom) {
                return new long[] {i, NOT_ARENA, kind};
            }
            if (tensor.bytes() > tensors.bytes()[i]) {
                return new long[] {i, TOO_LARGE, tensor.bytes()};
            }
            setCustomAllocation(subgraph, tensors.tensors()[i], new NativeAddress(tensors.addresses()[i]),
                    tensors.bytes()[i], "subgraph " + subgraphIndex + ", tensor " + tensors.tensors()[i]);
        }
        return null;
    }

    /** The plan's tensors and bytes, shared by every interpreter of the plan, at this arena's addresses. */
    private TensorMemory planned() {
        Placement[] placements = planned.placements();
        long[] addresses = new long[placements.length];
        for (int i = 0; i < placements.length; i++) {
            addresses[i] = arena.address(subgraphIndex, placements[i]);
        }
        return new TensorMemory(planned.tensors(), addresses, planned.bytes());
    }

    /** Points a tensor at memory the interpreter does not own; also after allocation, where it only moves it. */
    public static void setCustomAllocation(Subgraph subgraph, int index, Pointer memory, long bytes, String where) {
        setCustomAllocation(subgraph, index, memory, bytes, where, kTfLiteCustomAllocationFlagsNone);
    }

    private static void setCustomAllocation(Subgraph subgraph, int index, Pointer memory, long bytes, String where,
                                            long flags) {
        try (TfLiteCustomAllocation allocation = new TfLiteCustomAllocation()) {
            allocation.data(memory).bytes(bytes);
            TfLiteStatus.check(subgraph.SetCustomAllocationForTensor(index, allocation, flags),
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
