package dev.tflitearena.bridge;

import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

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
 * and custom name in the process (each node holds a copy of its registration; one library is loaded).
 */
final class BulkSnapshot {
    /** The names by TfLiteType and by builtin code, as far as met; the custom ones by code and name. */
    private static final AtomicReferenceArray<String> TYPE_NAMES = new AtomicReferenceArray<>(64);
    private static final AtomicReferenceArray<String> BUILTIN_OP_NAMES = new AtomicReferenceArray<>(512);
    private static final Map<String, String> CUSTOM_OP_NAMES = new ConcurrentHashMap<>();

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
            tensors.add(new Tensor(t, name == null ? "" : name, bytes, NativeTensors.allocation(allocation),
                    variable, typeName(type), dims));
        }
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
            nodes.add(new Node(opName(builtinCode, customName, registration), inputs, outputs, temporaries, intermediates, inplace));
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
        return cached(TYPE_NAMES, type, () -> typeNameOf(type));
    }

    /** The cache's entry at {@code index}, made once; an index beyond it is made every time. */
    private static String cached(AtomicReferenceArray<String> cache, int index, Supplier<String> make) {
        if (index < 0 || index >= cache.length()) {
            return make.get();
        }
        String value = cache.get(index);
        if (value == null) {
            value = make.get();
            cache.set(index, value);
        }
        return value;
    }

    private static String typeNameOf(int type) {
        BytePointer name = TfLiteTypeGetName(type);
        return name == null || name.isNull() ? null : name.getString();
    }

    /** GetOpNameByRegistration reads the builtin code and, for custom and delegate kernels, the custom name. */
    private static String opName(int builtinCode, String customName, long registration) {
        if (customName != null) {
            return CUSTOM_OP_NAMES.computeIfAbsent(builtinCode + "/" + customName, k -> opNameOf(registration));
        }
        return cached(BUILTIN_OP_NAMES, builtinCode, () -> opNameOf(registration));
    }

    private static String opNameOf(long registration) {
        return GetOpNameByRegistration(new TfLiteRegistration(new NativeAddress(registration)));
    }
}
