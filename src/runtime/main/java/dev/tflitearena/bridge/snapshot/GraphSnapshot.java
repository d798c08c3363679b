package dev.tflitearena.bridge.snapshot;

import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.bridge.presets.ReleaseApi;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.RegistrationNodePair;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.util.ArrayList;
import java.util.List;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.GetOpNameByRegistration;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.TfLiteTypeGetName;

/**
 * Copies a prepared native interpreter's subgraphs into the pure graph model: with the native layer, one call
 * per subgraph ({@link BulkSnapshot}); where it is missing ({@link NativeLayer#unavailableReason()}), field by
 * field through the presets, which reads the same.
 */
public final class GraphSnapshot {
    /** TFLite's Subgraph passes kDefaultTensorAlignment to its ArenaPlanner. */
    private static final int NATIVE_TENSOR_ALIGNMENT = 64;

    private GraphSnapshot() {
    }

    public static Graph of(Interpreter interpreter, boolean preserveAllTensors, TfliteRelease release) {
        return of(interpreter, preserveAllTensors, release, NativeLayer.available());
    }

    /** {@code bulk} picks the native layer's one call per subgraph over the per-field path. */
    static Graph of(Interpreter interpreter, boolean preserveAllTensors, TfliteRelease release, boolean bulk) {
        List<dev.tflitearena.graph.Subgraph> subgraphs = new ArrayList<>();
        for (int s = 0; s < interpreter.subgraphs_size(); s++) {
            Subgraph source = interpreter.subgraph(s);
            subgraphs.add(subgraph(source, s, bulk ? BulkSnapshot.read(source) : perField(source)));
        }
        return new Graph(new Graph.Options(NATIVE_TENSOR_ALIGNMENT, preserveAllTensors, release), subgraphs);
    }

    /** One subgraph of a native interpreter, as {@link #of} copies each. */
    public static dev.tflitearena.graph.Subgraph subgraph(Subgraph source, int index) {
        return subgraph(source, index, NativeLayer.available() ? BulkSnapshot.read(source) : perField(source));
    }

    private static BulkSnapshot.Contents perField(Subgraph source) {
        List<Tensor> tensors = new ArrayList<>();
        for (int t = 0; t < source.tensors_size(); t++) {
            tensors.add(tensor(source.tensor(t), t));
        }
        List<Node> nodes = new ArrayList<>();
        for (int nodeIndex : NativeTensors.ints(source.execution_plan())) {
            nodes.add(node(source.node_and_registration(nodeIndex)));
        }
        return new BulkSnapshot.Contents(tensors, nodes);
    }

    private static dev.tflitearena.graph.Subgraph subgraph(Subgraph source, int index, BulkSnapshot.Contents contents) {
        String name = source.GetName();
        return new dev.tflitearena.graph.Subgraph(index, name == null ? "" : name, contents.tensors(), contents.nodes(),
                NativeTensors.ints(source.inputs()), NativeTensors.ints(source.outputs()),
                NativeTensors.ints(source.variables()));
    }

    public static Tensor tensor(TfLiteTensor t, int index) {
        BytePointer name = t.name();
        BytePointer type = TfLiteTypeGetName(t.type());
        return new Tensor(index, name == null || name.isNull() ? "" : name.getString(), t.bytes(),
                NativeTensors.allocation(t.allocation_type()), t.is_variable(),
                type == null || type.isNull() ? null : type.getString(), NativeTensors.ints(t.dims()));
    }

    private static Node node(RegistrationNodePair pair) {
        var node = pair.first();
        var registration = pair.second();
        return new Node(GetOpNameByRegistration(registration), NativeTensors.ints(node.inputs()),
                NativeTensors.ints(node.outputs()), NativeTensors.ints(node.temporaries()),
                NativeTensors.ints(node.intermediates()), ReleaseApi.inplaceOperator(registration));
    }
}
