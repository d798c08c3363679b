package dev.tflitearena.graph.tflite;

import dev.tflitearena.graph.TensorType;

import java.util.Arrays;

/**
 * How a constant's data is compressed, as the schema's SparsityParameters say it: the order in which the
 * dense tensor's dimensions, and then its blocks' dimensions, are traversed; which dimension each block
 * dimension splits ({@code blockMap}, empty when there are no blocks); and one {@link Level} per entry of the
 * traversal order. The buffer then holds only the elements the levels reach, in traversal order. Arrays are
 * shared, not copied: treat them as read-only.
 */
public record Sparsity(int[] traversalOrder, int[] blockMap, Level[] levels) {

    /** One level of the traversal: DENSE, every index up to {@code denseSize}, or SPARSE_CSR. */
    public record Level(int denseSize, int[] segments, int[] indices) {
        public static Level dense(int size) {
            return new Level(size, null, null);
        }

        /** For each position of the levels above, the range of {@code indices} it holds: the kept indices. */
        public static Level csr(int[] segments, int[] indices) {
            return new Level(0, segments, indices);
        }

        public boolean sparse() {
            return segments != null;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Level l && denseSize == l.denseSize && Arrays.equals(segments, l.segments)
                    && Arrays.equals(indices, l.indices);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * denseSize + Arrays.hashCode(segments)) + Arrays.hashCode(indices);
        }

        @Override
        public String toString() {
            return sparse() ? "SPARSE_CSR(" + segments.length + " segments, " + indices.length + " indices)"
                    : "DENSE(" + denseSize + ")";
        }
    }

    /** A dense constant compressed: the sparsity to write with its tensor, and the values its buffer holds. */
    public record Compressed(Sparsity sparsity, byte[] values) {
    }

    public Sparsity {
        int n = traversalOrder.length;
        if (levels.length != n) {
            throw new IllegalArgumentException("sparsity has " + n + " dimensions in its traversal order but "
                    + levels.length + " levels");
        }
        int[] sorted = traversalOrder.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < n; i++) {
            if (sorted[i] != i) {
                throw new IllegalArgumentException("traversal order " + Arrays.toString(traversalOrder)
                        + " is no permutation of 0.." + (n - 1));
            }
        }
    }

    /**
     * {@code dense}, of {@code shape} and {@code type}, in TFLite's compressed format: traversal order
     * identity, every dimension DENSE but the last, which is SPARSE_CSR. With a {@code blockSize} above 1 the
     * last dimension is cut into blocks of that many elements, as the sparse FULLY_CONNECTED kernels want
     * their weights (1x4 for float, 1x16 for hybrid int8): the CSR level then indexes blocks, a block with any
     * non-zero element is kept whole, and a last DENSE level of {@code blockSize} runs through it. An element
     * is zero when all its bytes are.
     */
    public static Compressed compress(TensorType type, int[] shape, byte[] dense, int blockSize) {
        int width = type.elementBytes();
        if (width == 0) {
            throw new IllegalArgumentException(type + " elements have no fixed size: they cannot be compressed");
        }
        if (shape.length == 0) {
            throw new IllegalArgumentException("a scalar cannot be compressed");
        }
        if (dense.length != type.bytesFor(shape)) {
            throw new IllegalArgumentException("dense data has " + dense.length + " bytes, a " + type
                    + " tensor of shape " + Arrays.toString(shape) + " needs " + type.bytesFor(shape));
        }
        int rank = shape.length;
        int last = shape[rank - 1];
        if (blockSize < 1 || last % blockSize != 0) {
            throw new IllegalArgumentException("block size " + blockSize + " does not divide the last dimension, "
                    + last + ", of shape " + Arrays.toString(shape));
        }
        int blocks = last / blockSize;
        int rows = Math.toIntExact(dense.length / ((long) last * width));
        int blockBytes = blockSize * width;
        int[] segments = new int[rows + 1];
        int[] indices = new int[rows * blocks];
        byte[] values = new byte[dense.length];
        int kept = 0;
        for (int row = 0; row < rows; row++) {
            for (int block = 0; block < blocks; block++) {
                int from = (row * blocks + block) * blockBytes;
                if (!allZero(dense, from, blockBytes)) {
                    System.arraycopy(dense, from, values, kept * blockBytes, blockBytes);
                    indices[kept++] = block;
                }
            }
            segments[row + 1] = kept;
        }
        boolean blocked = blockSize > 1;
        Level[] levels = new Level[blocked ? rank + 1 : rank];
        for (int d = 0; d < rank - 1; d++) {
            levels[d] = Level.dense(shape[d]);
        }
        levels[rank - 1] = Level.csr(segments, Arrays.copyOf(indices, kept));
        if (blocked) {
            levels[rank] = Level.dense(blockSize);
        }
        int[] order = new int[levels.length];
        Arrays.setAll(order, i -> i);
        Sparsity sparsity = new Sparsity(order, blocked ? new int[]{rank - 1} : new int[0], levels);
        return new Compressed(sparsity, Arrays.copyOf(values, kept * blockBytes));
    }

    private static boolean allZero(byte[] data, int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The number of elements the buffer of a tensor of {@code shape} must hold, after checking that the levels
     * describe that shape: dense sizes equal to the (blocked) dimensions, CSR segments that rise from 0 to the
     * number of indices, one more than the positions above them, and indices inside the dimension.
     */
    public long storedElements(String tensor, int[] shape) {
        int rank = shape.length;
        int n = traversalOrder.length;
        if (n != rank + blockMap.length) {
            throw new IllegalArgumentException(where(tensor) + "a traversal order of " + n + " dimensions does not fit"
                    + " shape " + Arrays.toString(shape) + " with " + blockMap.length + " block dimensions");
        }
        long[] extents = new long[n];
        for (int d = 0; d < rank; d++) {
            extents[d] = shape[d];
        }
        for (int k = 0; k < blockMap.length; k++) {
            int dimension = blockMap[k];
            if (dimension < 0 || dimension >= rank) {
                throw new IllegalArgumentException(where(tensor) + "block map " + Arrays.toString(blockMap)
                        + " names a dimension shape " + Arrays.toString(shape) + " lacks");
            }
            Level block = levels[position(rank + k)];
            if (block.sparse() || block.denseSize() < 1 || shape[dimension] % block.denseSize() != 0) {
                throw new IllegalArgumentException(where(tensor) + "block dimension " + (rank + k)
                        + " must be DENSE with a size that divides dimension " + dimension + " of shape "
                        + Arrays.toString(shape));
            }
            extents[rank + k] = block.denseSize();
            extents[dimension] /= block.denseSize();
        }
        long positions = 1;
        for (int i = 0; i < n; i++) {
            Level level = levels[i];
            long extent = extents[traversalOrder[i]];
            if (!level.sparse()) {
                if (level.denseSize() != extent) {
                    throw new IllegalArgumentException(where(tensor) + "level " + i + " is DENSE of size "
                            + level.denseSize() + ", its dimension has " + extent);
                }
                positions *= extent;
                continue;
            }
            int[] segments = level.segments();
            int[] indices = level.indices();
            if (segments.length != positions + 1 || segments[0] != 0 || segments[segments.length - 1] != indices.length) {
                throw new IllegalArgumentException(where(tensor) + "level " + i + " has " + segments.length
                        + " segments from " + (segments.length == 0 ? "nothing" : segments[0]) + " to "
                        + (segments.length == 0 ? "nothing" : segments[segments.length - 1]) + "; the levels above "
                        + "it have " + positions + " positions, so it needs " + (positions + 1) + " from 0 to the "
                        + indices.length + " indices");
            }
            for (int s = 1; s < segments.length; s++) {
                if (segments[s] < segments[s - 1]) {
                    throw new IllegalArgumentException(where(tensor) + "level " + i + ": segment " + s
                            + " falls from " + segments[s - 1] + " to " + segments[s]);
                }
            }
            for (int index : indices) {
                if (index < 0 || index >= extent) {
                    throw new IllegalArgumentException(where(tensor) + "level " + i + " has index " + index
                            + ", outside its dimension of " + extent);
                }
            }
            positions = indices.length;
        }
        return positions;
    }

    private int position(int dimension) {
        for (int i = 0; i < traversalOrder.length; i++) {
            if (traversalOrder[i] == dimension) {
                return i;
            }
        }
        throw new AssertionError("the constructor checked the traversal order is a permutation");
    }

    private static String where(String tensor) {
        return "tensor '" + tensor + "': sparsity: ";
    }

    @Override
    public String toString() {
        return "traversal order " + Arrays.toString(traversalOrder) + ", block map " + Arrays.toString(blockMap)
                + ", levels " + Arrays.toString(levels);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sparsity s && Arrays.equals(traversalOrder, s.traversalOrder)
                && Arrays.equals(blockMap, s.blockMap) && Arrays.deepEquals(levels, s.levels);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(traversalOrder) + Arrays.hashCode(blockMap)) + Arrays.hashCode(levels);
    }
}
