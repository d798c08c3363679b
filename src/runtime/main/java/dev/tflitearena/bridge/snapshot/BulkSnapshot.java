package dev.tflitearena.bridge.snapshot;

import dev.tflitearena.bridge.presets.NativeAddress;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.nativelayer.NativeLayer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongFunction;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.GetOpNameByRegistration;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.TfLiteTypeGetName;

/**
 * A subgraph's tensors and nodes read by one native call (native/snapshot.cc) instead of a JNI crossing per
 * field, into arrays each thread keeps for its next snapshot. What {@link GraphSnapshot}'s per-field path
 * reads, in this order:
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
    /** How BytePointer.getString() decodes, so that names equal the per-field path's; fixed at start-up. */
    private static final Charset NAME_CHARSET = Charset.defaultCharset();
    /** Every list of no tensors: most nodes have no temporaries or intermediates. */
    private static final int[] NO_INTS = new int[0];
    /**
     * Each thread's arrays for the native call, grown to the largest subgraph it has read and kept: decoding
     * copies everything out, so the snapshot allocates nothing but the graph.
     */
    private static final ThreadLocal<BulkSnapshot> BUFFERS = ThreadLocal.withInitial(BulkSnapshot::new);

    /** What one subgraph holds. */
    record Contents(List<Tensor> tensors, List<Node> nodes) {
    }

    private final int[] needed = new int[3];
    private int[] ints = new int[0];
    private long[] longs = new long[0];
    private byte[] strings = new byte[0];
    private int intAt;
    private int longAt;
    private int stringAt;

    /** The subgraph's tensors and the nodes of its execution plan; the native layer must be available. */
    static Contents read(Subgraph subgraph) {
        int nodeCount = (int) subgraph.nodes_size();
        long nodes = nodeCount == 0 ? 0 : subgraph.node_and_registration(0).address();
        int[] plan = NativeTensors.ints(subgraph.execution_plan());
        long context = subgraph.context().address();
        BulkSnapshot snapshot = BUFFERS.get();
        while (!NativeLayer.snapshotInto(context, nodes, nodeCount, plan, snapshot.needed, snapshot.ints,
                snapshot.longs, snapshot.strings)) {
            snapshot.grow();
        }
        return snapshot.decode();
    }

    private void grow() {
        if (needed[0] > ints.length) {
            ints = new int[needed[0]];
        }
        if (needed[1] > longs.length) {
            longs = new long[needed[1]];
        }
        if (needed[2] > strings.length) {
            strings = new byte[needed[2]];
        }
    }

    private Contents decode() {
        intAt = 0;
        longAt = 0;
        stringAt = 0;
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
            nodes.add(new Node(opName(builtinCode, customName, registration), inputs, outputs, temporaries,
                    intermediates, inplace));
        }
        return new Contents(tensors, nodes);
    }

    private String string() {
        int length = ints[intAt++];
        if (length < 0) {
            return null;
        }
        String value = new String(strings, stringAt, length, NAME_CHARSET);
        stringAt += length;
        return value;
    }

    private int[] intList() {
        int count = ints[intAt++];
        if (count == 0) {
            return NO_INTS;
        }
        int[] values = new int[count];
        System.arraycopy(ints, intAt, values, 0, count);
        intAt += count;
        return values;
    }

    private static String typeName(int type) {
        return cached(TYPE_NAMES, type, type, t -> typeNameOf((int) t));
    }

    /**
     * The cache's entry at {@code index}, made from {@code source} once; an index beyond it is made every time.
     * {@code make} takes what it needs as an argument: a lambda capturing it would be allocated at every call.
     */
    private static String cached(AtomicReferenceArray<String> cache, int index, long source,
                                 LongFunction<String> make) {
        if (index < 0 || index >= cache.length()) {
            return make.apply(source);
        }
        String value = cache.get(index);
        if (value == null) {
            value = make.apply(source);
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
        return cached(BUILTIN_OP_NAMES, builtinCode, registration, BulkSnapshot::opNameOf);
    }

    private static String opNameOf(long registration) {
        return GetOpNameByRegistration(new TfLiteRegistration(new NativeAddress(registration)));
    }
}
