package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.handover.PlanHandover;
import dev.tflitearena.bridge.presets.CustomOps;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.snapshot.GraphSnapshot;
import dev.tflitearena.bridge.snapshot.NativePlanReader;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.plan.SubgraphPlan;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteContext;
import org.bytedeco.tensorflowlite.TfLiteNode;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteError;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * Reads the native plan of a subgraph while TFLite holds it. The subgraphs a control-flow kernel calls are
 * planned and freed inside its invoke: CALL_ONCE allocates its init subgraph, runs it and frees its rw arena;
 * WHILE frees its condition and body at the end of each invoke. So a no-op node is appended to the subgraph:
 * the last to run, its invoke copies the subgraph and its plan while every node has been prepared and planned
 * and nothing is freed yet, and its prepare records that TFLite prepared the subgraph at all.
 *
 * <p>One registration serves every interpreter, as {@link PlanHandover}'s does: the callbacks find the probe
 * they were called for by the address of the subgraph's TfLiteContext.
 */
final class PlanProbe {
    static final String OP_NAME = "TfLiteArenaPlanProbe";

    private static final Map<Long, PlanProbe> BY_CONTEXT = new ConcurrentHashMap<>();
    // The native registration only holds function pointers: these fields keep the callbacks and the name alive.
    private static final Prepare PREPARE = new Prepare();
    private static final Invoke INVOKE = new Invoke();
    private static final BytePointer OP_NAME_NATIVE = new BytePointer(OP_NAME);
    private static final TfLiteRegistration REGISTRATION = CustomOps.registration(OP_NAME_NATIVE, PREPARE, INVOKE);

    /** The subgraph and its native plan, read at one moment. */
    record Reading(dev.tflitearena.graph.Subgraph graph, SubgraphPlan plan) {
    }

    private final Subgraph subgraph;
    private final int index;
    private final TfliteRelease release;
    private final long context;
    private boolean prepared;
    private Reading lastRun;
    private RuntimeException failure;

    private PlanProbe(Subgraph subgraph, int index, TfliteRelease release) {
        this.subgraph = subgraph;
        this.index = index;
        this.release = release;
        this.context = subgraph.context().address();
    }

    /** Appends a probe to subgraph {@code index}; call before the interpreter's first AllocateTensors. */
    static PlanProbe install(Interpreter interpreter, int index, TfliteRelease release) {
        Subgraph subgraph = interpreter.subgraph(index);
        PlanProbe probe = new PlanProbe(subgraph, index, release);
        BY_CONTEXT.put(probe.context, probe);
        CustomOps.append(subgraph, REGISTRATION, "subgraph " + index + ": adding " + OP_NAME);
        return probe;
    }

    /** Whether TFLite has prepared, and so planned, the whole subgraph. */
    boolean prepared() {
        return prepared;
    }

    /** The subgraph as its last run saw it, with its plan; null when it never ran. */
    Reading lastRun() {
        if (failure != null) {
            throw failure;
        }
        return lastRun;
    }

    /** The subgraph and its plan as they are now. */
    Reading readNow() {
        return new Reading(withoutProbe(GraphSnapshot.subgraph(subgraph, index)),
                NativePlanReader.read(subgraph, index, release));
    }

    void uninstall() {
        BY_CONTEXT.remove(context);
    }

    /** The probe is no node of the model: a node without tensors at the end changes no plan, and goes. */
    private static dev.tflitearena.graph.Subgraph withoutProbe(dev.tflitearena.graph.Subgraph s) {
        List<Node> nodes = s.nodes().stream().filter(n -> !OP_NAME.equals(n.op())).toList();
        return new dev.tflitearena.graph.Subgraph(s.index(), s.name(), s.tensors(), nodes, s.inputs(), s.outputs(),
                s.variables());
    }

    private static final class Prepare extends TfLiteRegistration.Prepare_TfLiteContext_TfLiteNode {
        @Override
        public int call(TfLiteContext context, TfLiteNode node) {
            PlanProbe probe = BY_CONTEXT.get(context.address());
            if (probe == null) {
                return kTfLiteError;
            }
            probe.prepared = true;
            return kTfLiteOk;
        }
    }

    private static final class Invoke extends TfLiteRegistration.Invoke_TfLiteContext_TfLiteNode {
        @Override
        public int call(TfLiteContext context, TfLiteNode node) {
            PlanProbe probe = BY_CONTEXT.get(context.address());
            if (probe == null) {
                return kTfLiteError;
            }
            try {
                probe.lastRun = probe.readNow();
                return kTfLiteOk;
            } catch (RuntimeException | Error e) {
                // An exception must not cross the native frames of Invoke; lastRun() rethrows it.
                probe.failure = e instanceof RuntimeException r ? r : new NativeException(e.toString());
                return kTfLiteError;
            }
        }
    }
}
