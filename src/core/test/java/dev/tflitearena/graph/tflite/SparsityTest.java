package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.DimensionMetadata;
import org.tensorflow.lite.schema.DimensionType;
import org.tensorflow.lite.schema.Int32Vector;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.SparseIndexVector;
import org.tensorflow.lite.schema.SparsityParameters;
import org.tensorflow.lite.schema.Tensor;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SparsityTest {
    /** A [2, 2, 4] int8 constant: rows (0,0) and (1,1) hold non-zeros, in columns 1, 3 and 0, 1, 2. */
    private static final int[] SHAPE = {2, 2, 4};
    private static final byte[] DENSE = {
            0, 5, 0, -7,
            0, 0, 0, 0,
            0, 0, 0, 0,
            1, 2, 3, 0};

    @Test
    void theLastDimensionIsCsrAndOnlyTheNonZerosAreKept() {
        Sparsity.Compressed c = Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 1);
        assertArrayEquals(new byte[]{5, -7, 1, 2, 3}, c.values());
        assertArrayEquals(new int[]{0, 1, 2}, c.sparsity().traversalOrder());
        assertArrayEquals(new int[0], c.sparsity().blockMap());
        assertEquals(Sparsity.Level.dense(2), c.sparsity().levels()[0]);
        assertEquals(Sparsity.Level.dense(2), c.sparsity().levels()[1]);
        assertEquals(Sparsity.Level.csr(new int[]{0, 2, 2, 2, 5}, new int[]{1, 3, 0, 1, 2}), c.sparsity().levels()[2]);
        assertEquals(5, c.sparsity().storedElements("t", SHAPE));
    }

    @Test
    void blocksAreKeptWholeWhenAnyElementIsNonZero() {
        Sparsity.Compressed c = Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 2);
        assertArrayEquals(new byte[]{0, 5, 0, -7, 1, 2, 3, 0}, c.values());
        assertArrayEquals(new int[]{0, 1, 2, 3}, c.sparsity().traversalOrder());
        assertArrayEquals(new int[]{2}, c.sparsity().blockMap());
        assertEquals(Sparsity.Level.csr(new int[]{0, 2, 2, 2, 4}, new int[]{0, 1, 0, 1}), c.sparsity().levels()[2]);
        assertEquals(Sparsity.Level.dense(2), c.sparsity().levels()[3]);
        assertEquals(8, c.sparsity().storedElements("t", SHAPE), "four blocks of two");
    }

    @Test
    void floatsAreCompressedWholeElements() {
        byte[] dense = TfliteModelBuilder.littleEndian(0f, 0.5f, 0f, -1f);
        Sparsity.Compressed c = Sparsity.compress(TensorType.FLOAT32, new int[]{2, 2}, dense, 1);
        assertArrayEquals(TfliteModelBuilder.littleEndian(0.5f, -1f), c.values());
        assertEquals(Sparsity.Level.csr(new int[]{0, 1, 2}, new int[]{1, 1}), c.sparsity().levels()[1]);
    }

    @Test
    void theWrittenModelReadsBackWithItsSparsity() {
        Sparsity.Compressed csr = Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 1);
        Sparsity.Compressed blocks = Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 2);
        TfliteModelBuilder model = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = model.subgraph("main");
        int first = main.constant(TensorSpec.of("csr", TensorType.INT8, SHAPE).withSparsity(csr.sparsity()), csr.values());
        int second = main.constant(TensorSpec.of("blocks", TensorType.INT8, SHAPE).withSparsity(blocks.sparsity()),
                blocks.values());
        main.outputs(first, second);
        byte[] bytes = model.build();

        TfliteTensor read = TfliteFile.read(bytes).subgraph(0).tensor(first);
        assertTrue(read.sparse());
        assertEquals(5, read.dataBytes());
        assertEquals(16, read.bytes(), "bytes count the dense shape");

        Tensor[] tensors = {Model.getRootAsModel(ByteBuffer.wrap(bytes)).subgraphs(0).tensors(first),
                Model.getRootAsModel(ByteBuffer.wrap(bytes)).subgraphs(0).tensors(second)};
        assertEquals(csr.sparsity(), sparsity(tensors[0].sparsity()));
        assertEquals(blocks.sparsity(), sparsity(tensors[1].sparsity()));
    }

    /** The schema's sparsity as a {@link Sparsity}, every index vector checked to be an Int32Vector. */
    private static Sparsity sparsity(SparsityParameters p) {
        int[] order = new int[p.traversalOrderLength()];
        for (int i = 0; i < order.length; i++) {
            order[i] = p.traversalOrder(i);
        }
        int[] blockMap = new int[p.blockMapLength()];
        for (int i = 0; i < blockMap.length; i++) {
            blockMap[i] = p.blockMap(i);
        }
        Sparsity.Level[] levels = new Sparsity.Level[p.dimMetadataLength()];
        for (int i = 0; i < levels.length; i++) {
            DimensionMetadata m = p.dimMetadata(i);
            if (m.format() == DimensionType.DENSE) {
                levels[i] = Sparsity.Level.dense(m.denseSize());
            } else {
                assertEquals(SparseIndexVector.Int32Vector, m.arraySegmentsType());
                assertEquals(SparseIndexVector.Int32Vector, m.arrayIndicesType());
                levels[i] = Sparsity.Level.csr(values((Int32Vector) m.arraySegments(new Int32Vector())),
                        values((Int32Vector) m.arrayIndices(new Int32Vector())));
            }
        }
        return new Sparsity(order, blockMap, levels);
    }

    private static int[] values(Int32Vector v) {
        int[] values = new int[v.valuesLength()];
        for (int i = 0; i < values.length; i++) {
            values[i] = v.values(i);
        }
        return values;
    }

    @Test
    void dataOfAnotherLengthThanTheSparsityKeepsIsRefused() {
        Sparsity.Compressed c = Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 1);
        TfliteModelBuilder.SubgraphBuilder main = new TfliteModelBuilder().subgraph("main");
        TensorSpec spec = TensorSpec.of("w", TensorType.INT8, SHAPE).withSparsity(c.sparsity());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> main.constant(spec, DENSE));
        assertTrue(e.getMessage().contains("data has 16 bytes, its sparsity keeps 5 INT8 elements"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> main.tensor(spec));
        assertTrue(e.getMessage().contains("is sparse but has no data"), e.getMessage());
    }

    @Test
    void aSparsityThatDoesNotFitTheShapeIsRefused() {
        Sparsity sparsity = Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 1).sparsity();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TensorSpec.of("w", TensorType.INT8, 4, 4).withSparsity(sparsity));
        assertTrue(e.getMessage().contains("traversal order of 3 dimensions does not fit shape [4, 4]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> TensorSpec.of("w", TensorType.INT8, 2, 3, 4).withSparsity(sparsity));
        assertTrue(e.getMessage().contains("level 1 is DENSE of size 2, its dimension has 3"), e.getMessage());
        Sparsity badSegments = new Sparsity(new int[]{0, 1}, new int[0], new Sparsity.Level[]{Sparsity.Level.dense(2),
                Sparsity.Level.csr(new int[]{0, 1}, new int[]{0})});
        e = assertThrows(IllegalArgumentException.class,
                () -> TensorSpec.of("w", TensorType.INT8, 2, 4).withSparsity(badSegments));
        assertTrue(e.getMessage().contains("it needs 3 from 0 to the 1 indices"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Sparsity.compress(TensorType.INT8, SHAPE, DENSE, 3));
        assertTrue(e.getMessage().contains("block size 3 does not divide the last dimension, 4"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Sparsity.compress(TensorType.INT8, SHAPE, new byte[15], 1));
        assertTrue(e.getMessage().contains("dense data has 15 bytes"), e.getMessage());
    }
}
