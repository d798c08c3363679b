package dev.tflitearena.memory;

import dev.tflitearena.bridge.HeapCensus;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.MemoryInfo;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.XnnpackWeightsCache;
import dev.tflitearena.bridge.check.ConstantProof;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.sharing.SharedConstants;
import dev.tflitearena.nativelayer.NativeLayer;
import dev.tflitearena.session.SessionOptions;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a session's heap holds beyond its arenas, split by when it is malloc'ed: an extra interpreter is built
 * beside one that has run (so that what the process pays once is paid), in the sessions' settings and on
 * TFLite's plan, sharing the constant-derived tensors and XNNPACK's weights as sessions do, and the native
 * heap is read after each step. What the interpreter builder and the subgraphs malloc for tensors and nodes
 * is also counted block by block ({@link HeapCensus}); the rest of each step has no pointer to follow.
 *
 * @param buildBytes         InterpreterBuilder: the interpreter, its subgraphs, tensors, nodes, parsed options
 * @param allocateBytes      AllocateTensors less the arenas and the warm-up copy of the shared tensors: kernels'
 *                           Init and Prepare (op data, temporaries), the planner's bookkeeping, with XNNPACK the
 *                           delegate's runtime and packed weights
 * @param arenaBytes         TFLite's rw and persistent arenas, as it reports them
 * @param firstInvokeBytes   the first Invoke: what kernels and TFLite's CPU back end (ruy, gemmlowp, Eigen's
 *                           thread pool) malloc on first use
 * @param sharingBytes       pointing the shared tensors into the region, less the warm-up copy it frees: the
 *                           interpreter's own copies of sparse indices freed (negative)
 * @param laterInvokeBytes   a further Invoke, which should malloc nothing
 * @param census             of the interpreter's structures, bytes per category, in the heap after all steps
 */
public record RestSplit(long buildBytes, long allocateBytes, long arenaBytes, long firstInvokeBytes,
                        long sharingBytes, long laterInvokeBytes, Map<String, Long> census) {

    /** The heap the extra interpreter added, its arenas left out: what this split explains of the rest. */
    public long restBytes() {
        return buildBytes + allocateBytes + firstInvokeBytes + sharingBytes + laterInvokeBytes;
    }

    public long censusBytes() {
        return census.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Null without the native layer, which the census needs. */
    public static RestSplit measure(Path modelPath, SessionOptions options) {
        if (!NativeLayer.available()) {
            return null;
        }
        try (NativeModel model = NativeModel.load(modelPath);
             XnnpackWeightsCache cache = options.xnnpack() && options.shareConstants()
                     ? XnnpackWeightsCache.create() : null) {
            InterpreterSettings settings = cache == null ? options.settings()
                    : options.settings().withSharedWeightsCache(cache);
            SharedConstants shared = options.shareConstants() ? shareable(model, settings) : null;
            try (NativeInterpreter first = ready(model, settings, shared)) {
                MemoryProfile.settle();
                long start = heap();
                try (NativeInterpreter extra = NativeInterpreter.build(model, settings)) {
                    long built = heap();
                    allocate(extra, shared);
                    long allocated = heap();
                    MemoryInfo arenas = extra.memoryInfo();
                    SeededInputs.feed(2, extra);
                    extra.invoke();
                    long invoked = heap();
                    if (shared != null) {
                        extra.shareConstants();
                    }
                    long sharing = heap();
                    SeededInputs.feed(3, extra);
                    extra.invoke();
                    long later = heap();
                    long arenaBytes = arenas.arenaBytes() + arenas.persistentBytes();
                    // Asked of malloc for the warm-up copy, which AllocateTensors makes and sharing frees.
                    long warmUp = shared == null ? 0 : shared.size() + JavaArena.ALIGNMENT;
                    return new RestSplit(built - start, allocated - built - arenaBytes - warmUp, arenaBytes,
                            invoked - allocated, sharing - invoked + warmUp, later - sharing, HeapCensus.of(extra));
                }
            } finally {
                if (shared != null) {
                    shared.close();
                }
            }
        }
    }

    /** The region sessions would share, or null when there is nothing to share. */
    private static SharedConstants shareable(NativeModel model, InterpreterSettings settings) {
        SharedConstants shared = ConstantProof.prove(model, settings);
        if (shared.isEmpty()) {
            shared.close();
            return null;
        }
        return shared;
    }

    /** An interpreter as a session's is once built: allocated, invoked, pointing into the region. */
    private static NativeInterpreter ready(NativeModel model, InterpreterSettings settings, SharedConstants shared) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, settings);
        allocate(interpreter, shared);
        SeededInputs.feed(1, interpreter);
        interpreter.invoke();
        if (shared != null) {
            interpreter.shareConstants();
        }
        return interpreter;
    }

    private static void allocate(NativeInterpreter interpreter, SharedConstants shared) {
        if (shared == null) {
            interpreter.allocateTensors();
        } else {
            interpreter.allocateTensors(null, shared);
        }
    }

    private static long heap() {
        MemoryProfile.settle();
        return NativeHeap.usage().outsideJvm();
    }
}
