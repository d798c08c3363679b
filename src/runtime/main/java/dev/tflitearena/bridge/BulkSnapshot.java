package dev.tflitearena.bridge;

import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.GetOpNameByRegistration;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.TfLiteTypeGetName;

/**
 * A subgraph's tensors and nodes read by one native call (native/snapshot.cc) instead of a JNI crossing per
 * field. What {@link GraphSnapshot}'s per-field path reads, in this order:
 * <pre>
 * ints:    tensor count; per tensor: type, allocation type, is_variable, name length (-1: none), name bytes
 *          in strings, dims count, dims; plan size; per node of the plan: inplace_operator, builtin code,
 *          custom name length (-1: none), then inputs, outputs, temporaries, intermediates, each as a
 *          count and its values
 * longs:   per tensor: bytes, data address; per node of the plan: its registration's address
 * strings: the tensor names and the custom names, in that order
 * </pre>
 * Type and op names come from the presets' own functions, once per distinct type and per distinct builtin code
 * and custom name (each node holds a copy of its registration).
 */
final class BulkSnapshot {
    /** What one subgraph holds. */
    record Contents(List<Tensor> tensors, List<Node> nodes) {
    }

    private final int[] ints;
    private final long[] longs;
    private final byte[] strings;
    private int intAt;
    private int longAt;
    private int stringAt;

    private BulkSnapshot(Object[] arrays) {
        ints = (int[]) arrays[0];
        longs = (long[]) arrays[1];
        strings = (byte[]) arrays[2];
    }

    /** The subgraph's tensors and the nodes of its execution plan; the native layer must be available. */
    static Contents read(Subgraph subgraph) {
        int nodeCount = (int) subgraph.nodes_size();
        long nodes = nodeCount == 0 ? 0 : subgraph.node_and_registration(0).address();
        int[] plan = NativeTensors.ints(subgraph.execution_plan());
        return new BulkSnapshot(NativeLayer.snapshotOf(subgraph.context().address(), nodes, nodeCount, plan))
                .decode();
    }

    private Contents decode() {
        Map<Integer, String> typeNames = new HashMap<>();
        int tensorCount = ints[intAt++];
        List<Tensor> tensors = new ArrayList<>(tensorCount);
        for (int t = 0; t < tensorCount; t++) {
            int type = ints[intAt++];
            int allocation = ints[intAt++];
            boolean variable = ints[intAt++] != 0;
            String name = string();
            int[] dims = intList();
            long bytes = longs[longAt++];
            longAt++; // the data address: the plan reader's, not the graph's
            String typeName = typeNames.computeIfAbsent(type, BulkSnapshot::typeName);
            tensors.add(new Tensor(t, name == null ? "" : name, bytes, NativeTensors.allocation(allocation),
                    variable, typeName, dims));
        }
        Map<String, String> opNames = new HashMap<>();
        int planSize = ints[intAt++];
        List<Node> nodes = new ArrayList<>(planSize);
        for (int n = 0; n < planSize; n++) {
            int inplace = ints[intAt++];
            int builtinCode = ints[intAt++];
            String customName = string();
            int[] inputs = intList();
            int[] outputs = intList();
            int[] temporaries = intList();
            int[] intermediates = intList();
            long registration = longs[longAt++];
            String key = builtinCode + (customName == null ? "" : "/" + customName);
            String op = opNames.computeIfAbsent(key, k -> opName(registration));
            nodes.add(new Node(op, inputs, outputs, temporaries, intermediates, inplace));
        }
        return new Contents(tensors, nodes);
    }

    private String string() {
        int length = ints[intAt++];
        if (length < 0) {
            return null;
        }
        // As BytePointer.getString() decodes, so that names equal the per-field path's.
        String value = new String(strings, stringAt, length);
        stringAt += length;
        return value;
    }

    private int[] intList() {
        int count = ints[intAt++];
        int[] values = new int[count];
        System.arraycopy(ints, intAt, values, 0, count);
        intAt += count;
        return values;
    }

    private static String typeName(int type) {
        BytePointer name = TfLiteTypeGetName(type);
        return name == null || name.isNull() ? null : name.getString();
    }

    private static String opName(long registration) {
        return GetOpNameByRegistration(new TfLiteRegistration(new NativeAddress(registration)));
    }
}
