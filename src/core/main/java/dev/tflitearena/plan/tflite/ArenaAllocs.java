package dev.tflitearena.plan.tflite;

import java.util.Arrays;

/**
 * Rows of TFLite's {@code ArenaAllocWithUsage} (an offset, a size and the inclusive node interval
 * {@code first..last}) stored column by column. The arena's best-fit scan reads many rows for every tensor
 * it places (every active row, or those {@link LiveByStretch} files near the tensor's lifetime), so the rows
 * are primitive arrays rather than a list of objects. A blank row has size 0 and the interval -1..-1.
 */
final class ArenaAllocs {
    long[] offset;
    long[] size;
    int[] first;
    int[] last;
    /** How many rows are in use, from row 0. */
    int count;

    ArenaAllocs(int capacity) {
        offset = new long[capacity];
        size = new long[capacity];
        first = new int[capacity];
        last = new int[capacity];
    }

    void set(int row, long rowOffset, long rowSize, int rowFirst, int rowLast) {
        offset[row] = rowOffset;
        size[row] = rowSize;
        first[row] = rowFirst;
        last[row] = rowLast;
    }

    void setBlank(int row) {
        set(row, 0, 0, -1, -1);
    }

    /** Inserts a row at {@code row}, moving the rows from there up by one. */
    void insert(int row, long rowOffset, long rowSize, int rowFirst, int rowLast) {
        if (count == offset.length) {
            int capacity = Math.max(8, count * 2);
            offset = Arrays.copyOf(offset, capacity);
            size = Arrays.copyOf(size, capacity);
            first = Arrays.copyOf(first, capacity);
            last = Arrays.copyOf(last, capacity);
        }
        int moved = count - row;
        System.arraycopy(offset, row, offset, row + 1, moved);
        System.arraycopy(size, row, size, row + 1, moved);
        System.arraycopy(first, row, first, row + 1, moved);
        System.arraycopy(last, row, last, row + 1, moved);
        set(row, rowOffset, rowSize, rowFirst, rowLast);
        count++;
    }

    /** Copies row {@code from} over row {@code to}, for removing rows in place. */
    void move(int from, int to) {
        set(to, offset[from], size[from], first[from], last[from]);
    }
}
