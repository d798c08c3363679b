package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TensorType;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code .tflite} model as {@link TfliteFile} read it: schema version, description, every subgraph, the
 * primary one first, and its metadata entries (such as TFLM's {@link OfflineMemoryAllocation}).
 *
 * <p>{@link #toGraph()} gives the static graph the file declares. It lacks what kernels add when the
 * interpreter prepares them: temporaries, in-place flags, tensors a kernel turns persistent (such as the
 * output of DEQUANTIZE of a constant), shapes a kernel resizes. Planning it is an estimate; only the native
 * snapshot ({@code NativeInterpreter.snapshot()}) plans exactly like TFLite.
 */
public record TfliteModel(long version, String description, int bufferCount, List<TfliteSubgraph> subgraphs,
                          List<Metadata> metadata) {

    /** One entry of the model's metadata: a name and the bytes of the buffer it refers to. */
    public record Metadata(String name, int buffer, byte[] data) {
    }

    public TfliteModel {
        subgraphs = List.copyOf(subgraphs);
        metadata = List.copyOf(metadata);
    }

    public TfliteSubgraph subgraph(int index) {
        return subgraphs.get(index);
    }

    /**
     * The static graph: a tensor with buffer data is {@code mmap_ro} (its bytes those of the data), a variable
     * {@code arena_rw_persistent}, a STRING, RESOURCE or VARIANT tensor {@code dynamic} with 0 bytes (as
     * TFLite allocates them itself), any other {@code arena_rw}. Nodes follow the operator order, with no
     * temporaries and no in-place flags.
     */
    public Graph toGraph() {
        List<Subgraph> graphs = new ArrayList<>(subgraphs.size());
        for (TfliteSubgraph s : subgraphs) {
            List<Tensor> tensors = new ArrayList<>(s.tensors().size());
            List<Integer> variables = new ArrayList<>();
            for (TfliteTensor t : s.tensors()) {
                tensors.add(tensor(t));
                if (t.variable()) {
                    variables.add(t.index());
                }
            }
            List<Node> nodes = new ArrayList<>(s.operators().size());
            for (TfliteOperator o : s.operators()) {
                nodes.add(new Node(o.op(), o.inputs(), o.outputs(), new int[0], o.intermediates(), 0));
            }
            graphs.add(new Subgraph(s.index(), s.name(), tensors, nodes, s.inputs(), s.outputs(),
                    variables.stream().mapToInt(Integer::intValue).toArray()));
        }
        return new Graph(Graph.Options.DEFAULT, graphs);
    }

    private static Tensor tensor(TfliteTensor t) {
        Allocation allocation;
        long bytes;
        if (t.constant()) {
            allocation = Allocation.MMAP_RO;
            bytes = t.dataBytes();
        } else if (t.type() == TensorType.STRING || t.type() == TensorType.RESOURCE
                || t.type() == TensorType.VARIANT) {
            allocation = Allocation.DYNAMIC;
            bytes = 0;
        } else {
            allocation = t.variable() ? Allocation.ARENA_RW_PERSISTENT : Allocation.ARENA_RW;
            bytes = Math.max(t.bytes(), 0);
        }
        return new Tensor(t.index(), t.name(), bytes, allocation, t.variable(),
                t.type() == null ? null : t.type().jsonName(), t.shape());
    }
}
