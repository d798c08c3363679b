package dev.tflitearena.bridge;

import dev.tflitearena.bridge.handover.Handover;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.handover.PlanHandover;
import dev.tflitearena.bridge.presets.CustomOps;
import dev.tflitearena.bridge.presets.NativeAddress;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.bridge.sharing.ConstantDerived;
import dev.tflitearena.bridge.sharing.SharedConstants;
import dev.tflitearena.bridge.snapshot.GraphSnapshot;
import dev.tflitearena.bridge.snapshot.NativePlanReader;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.nativelayer.NativeLayer;
import dev.tflitearena.nativelayer.OpProfiler;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.catalog.Planners;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.FlatBufferModel;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.InterpreterBuilder;
import org.bytedeco.tensorflowlite.InterpreterOptions;
import org.bytedeco.tensorflowlite.OpResolver;
import org.bytedeco.tensorflowlite.Profiler;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteRegistration;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.util.List;
import java.util.concurrent.CancellationException;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteCancelled;

/**
 * A native TFLite interpreter over a {@link NativeModel}, with the op resolver and options of its
 * {@link InterpreterSettings}. It owns its native objects and frees them on {@link #close()}; the op resolver
 * is the model's, shared by all its interpreters.
 */
public final class NativeInterpreter implements AutoCloseable {

    private final NativeModel model;
    private final InterpreterSettings settings;
    private final OpResolver resolver;
    private final InterpreterOptions options;
    private final Interpreter interpreter;
    private boolean allocated;
    private boolean invoked;
    private JavaArena arena;
    private SharedConstants shared;
    /** Whether the main subgraph's sparse tensors point at the region's copies of their indices. */
    private boolean sparsityShared;
    /** The private copy of the shared tensors until {@link #shareConstants()}; null when there is none. */
    private SharedConstants.WarmUp warmUp;
    private PlanHandover[] handovers = new PlanHandover[0];
    private XnnpackDelegate delegate;
    /** The delegate's weights cache, held from the build on, so that closing it meanwhile keeps it alive. */
    private XnnpackWeightsCache weightsCache;
    private boolean closed;

    private NativeInterpreter(NativeModel model, InterpreterSettings settings, OpResolver resolver,
                              InterpreterOptions options, Interpreter interpreter) {
        this.model = model;
        this.settings = settings;
        this.resolver = resolver;
        this.options = options;
        this.interpreter = interpreter;
    }

    /** Builds the interpreter; refuses a model with a custom op the resolver lacks, naming it. */
    public static NativeInterpreter build(NativeModel model, InterpreterSettings settings) {
        model.retain();
        FlatBufferModel flatBuffer = model.flatBuffer();
        OpResolver resolver = model.resolver(settings.defaultXnnpackDelegate());
        InterpreterOptions options = new InterpreterOptions();
        options.SetPreserveAllTensors(settings.preserveAllTensors());
        Interpreter interpreter = new Interpreter((Pointer) null);
        NativeInterpreter built = new NativeInterpreter(model, settings, resolver, options, interpreter);
        try (InterpreterBuilder builder = new InterpreterBuilder(flatBuffer, resolver, options)) {
            if (settings.xnnpackOptions() != null && settings.xnnpackOptions().weightsCache() != null) {
                settings.xnnpackOptions().weightsCache().retain();
                built.weightsCache = settings.xnnpackOptions().weightsCache();
            }
            if (settings.threads() != InterpreterSettings.DEFAULT_THREADS) {
                TfLiteStatus.check(builder.SetNumThreads(settings.threads()), model.path() + ": SetNumThreads");
            }
            String what = model.path() + ": InterpreterBuilder";
            TfLiteStatus.check(TfLiteStatus.call(() -> builder.apply(interpreter), what), what);
            if (interpreter.isNull()) {
                throw new NativeException(model.path() + ": InterpreterBuilder produced no interpreter");
            }
            TfLiteStatus.check(interpreter.EnableCancellation(), model.path() + ": EnableCancellation");
            built.refuseUnresolvedCustomOps();
            return built;
        } catch (RuntimeException e) {
            built.close();
            throw e;
        }
    }

    private void refuseUnresolvedCustomOps() {
        for (int s = 0; s < interpreter.subgraphs_size(); s++) {
            Subgraph subgraph = interpreter.subgraph(s);
            for (int n = 0; n < subgraph.nodes_size(); n++) {
                TfLiteRegistration registration = subgraph.node_and_registration(n).second();
                if (registration.builtin_code() != CustomOps.BUILTIN_OPERATOR_CUSTOM || registration.custom_name() == null) {
                    continue;
                }
                String op = registration.custom_name().getString();
                TfLiteRegistration found = resolver.FindOp(op, registration.version());
                if (found == null || found.isNull()) {
                    throw new NativeException(model.path() + ": subgraph " + s + ", node " + n
                            + " needs the custom op '" + op + "' (version " + registration.version()
                            + "), which " + settings.resolverName() + " does not provide");
                }
            }
        }
    }

    public NativeModel model() {
        return model;
    }

    public InterpreterSettings settings() {
        return settings;
    }

    /**
     * Before the first allocation, has the primary subgraph run its nodes in {@code order}: position k runs the
     * node its execution plan runs at order[k], as a {@link #snapshot()} lists them (see
     * {@link dev.tflitearena.plan.order.MemoryOrder}). Lifetimes are computed at the first AllocateTensors, on
     * the plan then in place. Refused with XNNPACK, whose delegate replaces the ops it takes by one of its own.
     */
    public void setNodeOrder(int[] order) {
        Interpreter live = live();
        if (allocated) {
            throw new IllegalStateException(model.path() + ": the node order is set before the first AllocateTensors,"
                    + " and this interpreter has allocated already");
        }
        if (settings.xnnpack()) {
            throw new IllegalArgumentException(model.path() + ": a node order applies to TFLite's own kernels; "
                    + "XNNPACK replaces the ops it takes by a node of its own: run without --xnnpack");
        }
        Subgraph primary = live.subgraph(0);
        int[] plan = NativeTensors.ints(primary.execution_plan());
        int[] reordered = new int[plan.length];
        boolean[] seen = new boolean[plan.length];
        if (order.length != plan.length) {
            throw new IllegalArgumentException(model.path() + ": an order of " + order.length + " nodes for a plan of "
                    + plan.length);
        }
        for (int k = 0; k < order.length; k++) {
            if (order[k] < 0 || order[k] >= plan.length || seen[order[k]]) {
                throw new IllegalArgumentException(model.path() + ": the order names position " + order[k]
                        + " at " + k + "; it must name each of the plan's " + plan.length + " positions once");
            }
            seen[order[k]] = true;
            reordered[k] = plan[order[k]];
        }
        TfLiteStatus.check(NativeLayer.setExecutionPlan(primary.address(), reordered),
                model.path() + ": SetExecutionPlan");
    }

    /** Prepares every op and lets the native planner place the tensors. */
    public void allocateTensors() {
        applyXnnpackDelegate();
        String what = model.path() + ": AllocateTensors";
        TfLiteStatus.check(TfLiteStatus.call(live()::AllocateTensors, what), what);
        allocated = true;
    }

    /**
     * At the first allocation, as TFLite applies its own default delegate: XNNPACK before 2.20 marks the graph
     * immutable, so the handover node and resized inputs must be in place before it takes the graph over.
     */
    private void applyXnnpackDelegate() {
        if (settings.xnnpackOptions() != null && delegate == null && !allocated) {
            delegate = XnnpackDelegate.apply(live(), settings.xnnpackOptions(), model.path().toString());
        }
    }

    /**
     * Prepares every op with the Java arena's plan in place of the native planner's: every planned tensor of
     * every subgraph gets a custom allocation at its planned offset (see {@link PlanHandover}). Must be the
     * interpreter's first allocation; the interpreter keeps the arena alive until it closes.
     */
    public Handover allocateTensors(JavaArena javaArena) {
        return allocateTensors(javaArena, null);
    }

    /**
     * Prepares every op with {@code javaArena}'s plan, or TFLite's planner where it is null, and the tensors of
     * {@code sharedConstants} in a private warm-up copy; the first {@link #invoke()} fills that copy, and
     * {@link #shareConstants()} then moves them into the shared region. Must be the interpreter's first
     * allocation; the interpreter keeps both alive until it closes.
     */
    public Handover allocateTensors(JavaArena javaArena, SharedConstants sharedConstants) {
        Interpreter live = live();
        if (allocated) {
            throw new IllegalStateException(model.path() + ": a plan is handed over at the first AllocateTensors,"
                    + " and this interpreter has allocated already");
        }
        if (javaArena == null && (sharedConstants == null || sharedConstants.isEmpty())) {
            throw new IllegalArgumentException(model.path() + ": nothing to hand over: no Java plan, no shared tensor");
        }
        if (javaArena != null) {
            javaArena.retain();
            arena = javaArena;
        }
        if (sharedConstants != null && !sharedConstants.isEmpty()) {
            sharedConstants.retain();
            shared = sharedConstants;
            warmUp = sharedConstants.warmUp();
        }
        handovers = PlanHandover.install(live, javaArena, warmUp == null ? null : warmUp.tensorMemory(),
                model.path().toString());
        applyXnnpackDelegate();
        String what = model.path() + (javaArena == null ? ": AllocateTensors with shared constants"
                : ": AllocateTensors with the Java plan");
        int status = TfLiteStatus.call(live::AllocateTensors, what);
        allocated = true;
        for (PlanHandover handover : handovers) {
            handover.rethrowFailure();
        }
        TfLiteStatus.check(status, what);
        int tensors = 0;
        for (PlanHandover handover : handovers) {
            tensors += handover.finish();
        }
        MemoryInfo left = memoryInfo();
        return javaArena == null ? new Handover(Planners.NATIVE, 0, 0, 0, tensors, left.arenaBytes(), left.persistentBytes())
                : new Handover(javaArena.plan().planner(), javaArena.arenaBytes(), javaArena.persistentBytes(),
                javaArena.size(), tensors, left.arenaBytes(), left.persistentBytes());
    }

    /** Runs the graph; throws {@link CancellationException} when {@link #cancel()} stopped it. */
    public void invoke() {
        String what = model.path() + ": Invoke";
        int status = TfLiteStatus.call(live()::Invoke, what);
        // Control flow prepares the subgraphs it calls again inside Invoke, and their handover node with them.
        for (PlanHandover handover : handovers) {
            handover.rethrowFailure();
        }
        if (status == kTfLiteCancelled) {
            throw new CancellationException(model.path() + ": the invoke was cancelled before its end");
        }
        TfLiteStatus.check(status, what);
        invoked = true;
    }

    /**
     * Has every subgraph report its node invocations to {@code profiler} from the next invoke on, or to none
     * with null: TFLite then times nothing. The caller keeps the profiler open until it is replaced or this
     * interpreter closes.
     */
    public void setProfiler(OpProfiler profiler) {
        Interpreter live = live();
        if (profiler != null) {
            live.SetProfiler(new Profiler(new NativeAddress(profiler.address())));
            return;
        }
        // Interpreter::SetProfiler(nullptr) frees the profiler the subgraphs report to and leaves them pointing
        // at it: each forgets its own first.
        for (int s = 0; s < live.subgraphs_size(); s++) {
            live.subgraph(s).SetProfiler(null, s);
        }
        live.SetProfiler((Profiler) null);
    }

    /** Whether TFLite has a profiler to report to (it has none unless {@link #setProfiler} gave it one). */
    public boolean hasProfiler() {
        Profiler root = live().GetProfiler();
        return root != null && !root.isNull();
    }

    /**
     * From any thread: stops the invoke in progress at TFLite's next check, between two nodes (a delegate's
     * node runs to its end), and that invoke throws. No effect on an invoke that starts later, nor after close.
     */
    public synchronized void cancel() {
        if (!closed) {
            TfLiteStatus.check(interpreter.Cancel(), model.path() + ": Cancel");
        }
    }

    /**
     * After the first invoke, which filled the warm-up copy: checks that the copy holds the shared region's
     * bytes, points the shared tensors into the region and frees the copy. The kernels that wrote those
     * tensors do so on their first invoke only ({@link ConstantDerived}), so nothing writes them again.
     */
    public void shareConstants() {
        live();
        if (warmUp == null) {
            throw new IllegalStateException(model.path() + ": this interpreter has no shared constants to move, or "
                    + "moved them already");
        }
        if (!invoked) {
            throw new IllegalStateException(model.path() + ": invoke once before sharing the constants: the first "
                    + "invoke computes them");
        }
        List<SharedConstants.Entry> differing = warmUp.differing();
        if (!differing.isEmpty()) {
            throw new NativeException(model.path() + ": " + differing.size() + " tensors meant to be shared differ"
                    + " from the bytes two interpreters agreed on, first tensor " + differing.get(0).tensor()
                    + " (" + differing.get(0).rule() + "): the kernels do not compute them from constants alone");
        }
        for (SharedConstants.Entry e : shared.entries()) {
            PlanHandover.setCustomAllocation(interpreter.subgraph(e.subgraph()), e.tensor(), shared.pointer(e),
                    e.bytes(), model.path() + ": subgraph " + e.subgraph() + ", tensor " + e.tensor());
        }
        shareSparsity(interpreter.subgraph(0));
        warmUp.free();
        warmUp = null;
    }

    private void shareSparsity(Subgraph main) {
        List<SharedConstants.Sparsity> copies = shared.sparsity();
        if (copies.isEmpty()) {
            return;
        }
        int[] tensors = copies.stream().mapToInt(SharedConstants.Sparsity::tensor).toArray();
        long[] addresses = copies.stream().mapToLong(SharedConstants.Sparsity::address).toArray();
        int differing = NativeLayer.shareSparsity(main.context().address(), tensors, addresses);
        if (differing >= 0) {
            throw new NativeException(model.path() + ": tensor " + tensors[differing] + "'s sparse indices differ from "
                    + "those of the interpreter they were copied from");
        }
        sparsityShared = true;
    }

    /** Bytes of the region this interpreter shares, 0 if none. */
    public long sharedBytes() {
        return shared == null ? 0 : shared.size();
    }

    /** Bytes of the sparse index structures this interpreter shares, 0 if none. */
    public long sharedSparsityBytes() {
        return sparsityShared ? shared.sparsityBytes() : 0;
    }

    public int inputCount() {
        return (int) live().inputs().capacity();
    }

    public int outputCount() {
        return (int) live().outputs().capacity();
    }

    /** The i-th graph input as the planners see it: name, type, shape, bytes. */
    public Tensor input(int i) {
        return GraphSnapshot.tensor(ioTensor(i, true), live().inputs().get(i));
    }

    /** Copies {@code data}, exactly the input's bytes, into the i-th graph input. */
    public void writeInput(int i, byte[] data) {
        TfLiteTensor tensor = ioTensor(i, true);
        if (data.length != tensor.bytes()) {
            throw new IllegalArgumentException(model.path() + ": input " + i + " takes " + tensor.bytes()
                    + " bytes, got " + data.length);
        }
        if (data.length > 0) {
            // A tensor of 0 bytes has no memory in TFLite: there is nothing to write.
            dataOf(tensor, "input " + i).put(data);
        }
    }

    /** A copy of the i-th graph output's bytes. */
    public byte[] readOutput(int i) {
        TfLiteTensor tensor = ioTensor(i, false);
        byte[] data = new byte[Math.toIntExact(tensor.bytes())];
        if (data.length > 0) {
            dataOf(tensor, "output " + i).get(data);
        }
        return data;
    }

    /** The i-th graph input or output; a model may name the absent tensor -1 there, which has no data. */
    private TfLiteTensor ioTensor(int i, boolean input) {
        var list = input ? live().inputs() : live().outputs();
        String what = (input ? "input " : "output ") + i;
        if (i < 0 || i >= list.capacity()) {
            throw new IllegalArgumentException(model.path() + ": there is no " + what + "; the model has "
                    + list.capacity());
        }
        int index = list.get(i);
        if (index < 0 || index >= live().tensors_size()) {
            throw new NativeException(model.path() + ": " + what + " is tensor " + index + ", which does not exist");
        }
        return live().tensor(index);
    }

    private BytePointer dataOf(TfLiteTensor tensor, String what) {
        BytePointer raw = tensor.data().raw();
        if (raw == null || raw.isNull()) {
            if (!allocated) {
                throw new IllegalStateException(model.path() + ": " + what + " has no memory yet: allocate tensors"
                        + " first");
            }
            // TFLite accepted the model and allocated, yet left this tensor without memory: the model's fault.
            throw new NativeException(model.path() + ": " + what + " (" + tensor.bytes() + " bytes, allocation "
                    + NativeTensors.allocation(tensor.allocation_type()).jsonName() + ") has no memory after "
                    + "AllocateTensors: TFLite left it unallocated (no operator uses it, or it is dynamic and was "
                    + "never sized)");
        }
        return raw.capacity(tensor.bytes()).limit(tensor.bytes());
    }

    /** What the runtime reports of its own arenas, summed over subgraphs. */
    public MemoryInfo memoryInfo() {
        Interpreter live = live();
        long arenaBytes = 0;
        long persistentBytes = 0;
        // malloc'd, not allocate()d: JavaCPP reads /proc/self/statm for every pointer it registers a
        // deallocator for, which costs more than the call, and this runs in every handover.
        Pointer memory = Pointer.malloc(Loader.sizeof(Subgraph.SubgraphAllocInfo.class));
        if (memory == null || memory.isNull()) {
            throw new NativeException(model.path() + ": cannot allocate a SubgraphAllocInfo");
        }
        try {
            Subgraph.SubgraphAllocInfo info = new Subgraph.SubgraphAllocInfo(memory);
            for (int s = 0; s < live.subgraphs_size(); s++) {
                live.subgraph(s).GetMemoryAllocInfo(info);
                arenaBytes += info.arena_size();
                persistentBytes += info.arena_persist_size();
            }
        } finally {
            Pointer.free(memory);
        }
        return new MemoryInfo(arenaBytes, persistentBytes);
    }

    /** The graph as the planners see it; call after {@link #allocateTensors()}, which adds temporaries. */
    public Graph snapshot() {
        return GraphSnapshot.of(live(), settings.preserveAllTensors(), settings.effectiveRelease());
    }

    /** Where the native planner put every arena tensor, read from the tensors' data pointers. */
    public Plan nativePlan() {
        return NativePlanReader.read(live(), NativeRelease.loadedOr(settings.release()));
    }

    /** The presets' interpreter, for the packages that read or change it natively; refused once closed. */
    public Interpreter live() {
        if (closed) {
            throw new IllegalStateException(model.path() + ": interpreter is closed");
        }
        return interpreter;
    }

    /** Synchronized with {@link #cancel()}, which another thread may call meanwhile. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (PlanHandover handover : handovers) {
            handover.uninstall();
        }
        if (sparsityShared) {
            // Else TFLite's TfLiteTensorFree would free the shared copies with the interpreter.
            List<SharedConstants.Sparsity> copies = shared.sparsity();
            NativeLayer.unshareSparsity(interpreter.subgraph(0).context().address(),
                    copies.stream().mapToInt(SharedConstants.Sparsity::tensor).toArray(),
                    copies.stream().mapToLong(SharedConstants.Sparsity::address).toArray());
        }
        interpreter.close();
        if (delegate != null) {
            delegate.close();
        }
        if (weightsCache != null) {
            weightsCache.release();
        }
        options.close();
        model.release();
        if (arena != null) {
            arena.release();
        }
        if (warmUp != null) {
            warmUp.free();
        }
        if (shared != null) {
            shared.release();
        }
    }
}
