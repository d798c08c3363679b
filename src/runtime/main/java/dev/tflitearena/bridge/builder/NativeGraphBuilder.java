package dev.tflitearena.bridge.builder;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.tflite.TfliteModelBuilder;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.Planner;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteQuantization;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRw;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteArenaRwPersistent;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteUInt8;

/**
 * Builds a pure {@link Graph} inside a fresh native interpreter and lets the native planner place it. Every
 * tensor is UINT8 of shape [bytes], so that its size is exact; nodes run {@link NoOpKernels}, whose prepare
 * declares the node's temporaries and sets allocation types as real kernels do.
 *
 * <p>The presets do not expose {@code Interpreter::AddSubgraphs}, so the interpreter comes from a model with
 * as many empty subgraphs as the graph has, and each is then filled through the Subgraph API. TFLite only
 * allocates the primary subgraph by itself; the others are allocated one by one, as control flow would.
 */
public final class NativeGraphBuilder {
    /** TFLite's Subgraph always gives its ArenaPlanner this tensor alignment. */
    private static final int NATIVE_TENSOR_ALIGNMENT = 64;
    private static final String NAME = "graph built in code";

    /** What the runtime made of the graph: the prepared subgraphs as it reports them, and where it put each tensor. */
    public record Result(Graph snapshot, Plan nativePlan) {

        /** The native plan against the plan {@code planner} makes of the same snapshot. */
        public PlanComparison compareWith(Planner planner) {
            return PlanComparison.of(nativePlan, planner.plan(snapshot));
        }
    }

    private NativeGraphBuilder() {
    }

    /**
     * Builds and allocates the graph natively. Refuses what the builder cannot express (a tensor alignment
     * other than 64, tensors that are neither arena nor constant) and a build that did not come out as asked.
     */
    public static Result plan(Graph graph) {
        refuseUnsupported(graph);
        InterpreterSettings settings = InterpreterSettings.DEFAULT.withPreserveAllTensors(
                graph.options().preserveAllTensors());
        List<Long> contexts = new ArrayList<>();
        // Closed last: constant tensors point into it for as long as the interpreter lives.
        try (BytePointer constants = new BytePointer(Math.max(1, largestConstant(graph)));
             NativeModel model = NativeModel.fromBytes(emptyModel(graph), NAME);
             NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            try {
                for (int s = 0; s < graph.subgraphs().size(); s++) {
                    Subgraph subgraph = interpreter.live().subgraph(s);
                    contexts.add(subgraph.context().address());
                    fill(subgraph, graph.subgraphs().get(s), constants);
                }
                interpreter.allocateTensors();
                for (int s = 1; s < graph.subgraphs().size(); s++) {
                    TfLiteStatus.check(interpreter.live().subgraph(s).AllocateTensors(),
                            NAME + ": subgraph " + s + ": AllocateTensors");
                }
                Graph snapshot = interpreter.snapshot();
                String difference = SameStructure.firstDifference(graph, snapshot);
                if (difference != null) {
                    throw new NativeException(NAME + ": the runtime did not build the graph as asked: " + difference);
                }
                return new Result(snapshot, interpreter.nativePlan());
            } finally {
                contexts.forEach(NoOpKernels::uninstall);
            }
        }
    }

    private static void refuseUnsupported(Graph graph) {
        if (graph.options().tensorAlignment() != NATIVE_TENSOR_ALIGNMENT) {
            throw new IllegalArgumentException("the native runtime aligns tensors to " + NATIVE_TENSOR_ALIGNMENT
                    + " bytes; this graph asks for " + graph.options().tensorAlignment());
        }
        for (dev.tflitearena.graph.Subgraph s : graph.subgraphs()) {
            for (Tensor t : s.tensors()) {
                if (!t.allocation().isArena() && t.allocation() != Allocation.MMAP_RO) {
                    throw new IllegalArgumentException("subgraph " + s.index() + ", tensor " + t.index() + " is "
                            + t.allocation().jsonName() + "; graphs built in code hold arena and mmap_ro tensors only");
                }
                if (t.bytes() > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("subgraph " + s.index() + ", tensor " + t.index() + " has "
                            + t.bytes() + " bytes, more than a shape [bytes] can hold");
                }
            }
        }
    }

    private static long largestConstant(Graph graph) {
        return graph.subgraphs().stream().flatMap(s -> s.tensors().stream())
                .filter(t -> t.allocation() == Allocation.MMAP_RO).mapToLong(Tensor::bytes).max().orElse(0);
    }

    private static byte[] emptyModel(Graph graph) {
        TfliteModelBuilder model = new TfliteModelBuilder();
        for (dev.tflitearena.graph.Subgraph s : graph.subgraphs()) {
            model.subgraph(s.name());
        }
        return model.build();
    }

    private static void fill(Subgraph target, dev.tflitearena.graph.Subgraph source, BytePointer constants) {
        String where = NAME + ": subgraph " + source.index();
        TfLiteStatus.check(target.AddTensors(source.tensors().size()), where + ": AddTensors");
        Map<Integer, Integer> switchedBy = switchingNodes(source);
        List<List<Integer>> switches = new ArrayList<>();
        source.nodes().forEach(n -> switches.add(new ArrayList<>()));
        try (TfLiteQuantization none = new TfLiteQuantization()) {
            for (Tensor t : source.tensors()) {
                int[] dims = {Math.toIntExact(t.bytes())};
                String at = where + ", tensor " + t.index();
                // Tensor names stay null: TFLite keeps the name pointer, and a Java string's copy dies with the call.
                if (t.allocation() == Allocation.MMAP_RO) {
                    TfLiteStatus.check(target.SetTensorParametersReadOnly(t.index(), kTfLiteUInt8, (BytePointer) null,
                            dims, none, constants, t.bytes()), at + ": SetTensorParametersReadOnly");
                    continue;
                }
                TfLiteStatus.check(target.SetTensorParametersReadWrite(t.index(), kTfLiteUInt8, (BytePointer) null,
                        dims, none, t.variable(), new int[0]), at + ": SetTensorParametersReadWrite");
                int wanted = t.allocation() == Allocation.ARENA_RW ? kTfLiteArenaRw : kTfLiteArenaRwPersistent;
                if (target.tensor(t.index()).allocation_type() == wanted) {
                    continue;
                }
                Integer node = switchedBy.get(t.index());
                if (node == null) {
                    target.tensor(t.index()).allocation_type(wanted);
                } else {
                    switches.get(node).add(t.index());
                    switches.get(node).add(wanted);
                }
            }
        }
        TfLiteStatus.check(target.SetInputs(source.inputs()), where + ": SetInputs");
        TfLiteStatus.check(target.SetOutputs(source.outputs()), where + ": SetOutputs");
        TfLiteStatus.check(target.SetVariables(source.variables()), where + ": SetVariables");
        for (int n = 0; n < source.nodes().size(); n++) {
            Node node = source.nodes().get(n);
            TfLiteStatus.check(target.AddNodeWithParameters(node.inputs(), node.outputs(), node.intermediates(),
                    (BytePointer) null, 0, null, NoOpKernels.registration(node.inplace()), new int[1]),
                    where + ", node " + n + ": AddNodeWithParameters");
        }
        // Node addresses are final only once every node is in TFLite's node vector.
        Map<Long, NoOpKernels.NodeSetup> setups = new HashMap<>();
        for (int n = 0; n < source.nodes().size(); n++) {
            int[] allocations = switches.get(n).stream().mapToInt(Integer::intValue).toArray();
            setups.put(target.node_and_registration(n).first().address(),
                    new NoOpKernels.NodeSetup(source.nodes().get(n).temporaries(), allocations));
        }
        NoOpKernels.install(target.context().address(), setups);
    }

    /**
     * The node whose prepare gives each tensor its allocation type, as a kernel gives its outputs and
     * temporaries theirs: the first node that outputs the tensor or holds it as a temporary.
     */
    private static Map<Integer, Integer> switchingNodes(dev.tflitearena.graph.Subgraph source) {
        Map<Integer, Integer> byTensor = new HashMap<>();
        for (int n = 0; n < source.nodes().size(); n++) {
            Node node = source.nodes().get(n);
            for (int[] list : new int[][]{node.outputs(), node.temporaries()}) {
                for (int t : list) {
                    if (t >= 0) {
                        byTensor.putIfAbsent(t, n);
                    }
                }
            }
        }
        return byTensor;
    }
}
