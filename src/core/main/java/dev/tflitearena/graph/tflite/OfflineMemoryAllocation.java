package dev.tflitearena.graph.tflite;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * TFLM's offline memory plan, the model metadata named {@value #NAME}: int32 values, little-endian, a version,
 * a subgraph count, the number of offsets n, then n offsets from the start of the arena, one per tensor of
 * every subgraph in turn (TFLM ignores the version and the subgraph count; this reader keeps them), -1 for
 * a tensor planned online. {@code offsets} holds them per subgraph, by tensor index; {@code subgraphs} is the
 * count the entry declares, which TFLM never reads.
 */
public record OfflineMemoryAllocation(int version, int subgraphs, List<int[]> offsets) {
    public static final String NAME = "OfflineMemoryAllocation";
    /** The offset of a tensor TFLM plans online (its kOnlinePlannedBuffer). */
    public static final int ONLINE = -1;
    private static final int HEADER_INTS = 3;

    public OfflineMemoryAllocation {
        offsets = List.copyOf(offsets);
    }

    /**
     * The model's offline plan, if its metadata has one; an entry TFLM could not read, or whose offset count
     * is not the model's tensor count (which TFLM refuses), is an {@link InvalidModelException}.
     */
    public static Optional<OfflineMemoryAllocation> of(TfliteModel model) {
        Optional<TfliteModel.Metadata> entry = model.metadata().stream().filter(m -> m.name().equals(NAME))
                .findFirst();
        return entry.map(m -> parse(m, model));
    }

    /** The values as the metadata's buffer holds them: version, subgraph count, offset count, offsets. */
    public static byte[] bytes(int version, List<int[]> offsets) {
        int total = offsets.stream().mapToInt(o -> o.length).sum();
        ByteBuffer b = ByteBuffer.allocate((HEADER_INTS + total) * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(version).putInt(offsets.size()).putInt(total);
        offsets.forEach(o -> Arrays.stream(o).forEach(b::putInt));
        return b.array();
    }

    private static OfflineMemoryAllocation parse(TfliteModel.Metadata m, TfliteModel model) {
        String where = "metadata '" + NAME + "' (buffer " + m.buffer() + ")";
        byte[] data = m.data();
        if (data.length < HEADER_INTS * Integer.BYTES || data.length % Integer.BYTES != 0) {
            throw new InvalidModelException(where + ": " + data.length + " bytes, not int32 values of a version, a "
                    + "subgraph count, an offset count and the offsets");
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int version = b.getInt();
        int subgraphs = b.getInt();
        int count = b.getInt();
        int tensors = model.subgraphs().stream().mapToInt(s -> s.tensors().size()).sum();
        if (count != tensors) {
            throw new InvalidModelException(where + ": " + count + " offsets for the model's " + tensors
                    + " tensors (TFLM refuses that)");
        }
        if (b.remaining() != count * Integer.BYTES) {
            throw new InvalidModelException(where + ": declares " + count + " offsets but holds "
                    + b.remaining() / Integer.BYTES);
        }
        List<int[]> offsets = new ArrayList<>();
        for (TfliteSubgraph s : model.subgraphs()) {
            int[] o = new int[s.tensors().size()];
            for (int t = 0; t < o.length; t++) {
                o[t] = b.getInt();
                if (o[t] < ONLINE) {
                    throw new InvalidModelException(where + ": tensor " + t + " of subgraph " + s.index()
                            + " has offset " + o[t] + ", neither an offset nor -1 (online)");
                }
            }
            offsets.add(o);
        }
        return new OfflineMemoryAllocation(version, subgraphs, offsets);
    }
}
