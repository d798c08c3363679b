package dev.tflitearena.plan.tflite;

import java.util.Objects;

/**
 * {@code std::sort(first, last, comp)} exactly as GNU libstdc++ (GCC 12, bits/stl_algo.h and stl_heap.h)
 * implements it: introsort, then a final insertion sort. The sort is not stable, and TFLite's ArenaPlanner
 * relies on whatever order it leaves ties in, so every comparison and every move is reproduced as written
 * there, including the heap-sort fallback. The comparator is called with the same arguments in the same
 * order as libstdc++ calls it.
 */
public final class GnuIntroSort {

    /** The comparator given to std::sort: true when x strictly sorts before y. */
    @FunctionalInterface
    public interface IntBefore {
        boolean before(int x, int y);
    }

    private static final int THRESHOLD = 16;

    private GnuIntroSort() {
    }

    /** Sorts {@code a[from, to)} as {@code std::sort(v.begin() + from, v.begin() + to, before)} would. */
    public static void sort(int[] a, int from, int to, IntBefore before) {
        Objects.checkFromToIndex(from, to, a.length);
        Objects.requireNonNull(before);
        if (from == to) {
            return;
        }
        introsortLoop(a, from, to, 2 * log2(to - from), before);
        finalInsertionSort(a, from, to, before);
    }

    private static int log2(int n) {
        return 31 - Integer.numberOfLeadingZeros(n);
    }

    private static void introsortLoop(int[] a, int first, int last, int depthLimit, IntBefore c) {
        while (last - first > THRESHOLD) {
            if (depthLimit == 0) {
                // __partial_sort(first, last, last): __heap_select has nothing past middle to select.
                makeHeap(a, first, last, c);
                sortHeap(a, first, last, c);
                return;
            }
            --depthLimit;
            int cut = unguardedPartitionPivot(a, first, last, c);
            introsortLoop(a, cut, last, depthLimit, c);
            last = cut;
        }
    }

    private static int unguardedPartitionPivot(int[] a, int first, int last, IntBefore c) {
        int mid = first + (last - first) / 2;
        moveMedianToFirst(a, first, first + 1, mid, last - 1, c);
        return unguardedPartition(a, first + 1, last, first, c);
    }

    private static void moveMedianToFirst(int[] a, int result, int x, int y, int z, IntBefore c) {
        if (c.before(a[x], a[y])) {
            if (c.before(a[y], a[z])) {
                swap(a, result, y);
            } else if (c.before(a[x], a[z])) {
                swap(a, result, z);
            } else {
                swap(a, result, x);
            }
        } else if (c.before(a[x], a[z])) {
            swap(a, result, x);
        } else if (c.before(a[y], a[z])) {
            swap(a, result, z);
        } else {
            swap(a, result, y);
        }
    }

    private static int unguardedPartition(int[] a, int first, int last, int pivot, IntBefore c) {
        while (true) {
            while (c.before(a[first], a[pivot])) {
                ++first;
            }
            --last;
            while (c.before(a[pivot], a[last])) {
                --last;
            }
            if (!(first < last)) {
                return first;
            }
            swap(a, first, last);
            ++first;
        }
    }

    private static void finalInsertionSort(int[] a, int first, int last, IntBefore c) {
        if (last - first > THRESHOLD) {
            insertionSort(a, first, first + THRESHOLD, c);
            for (int i = first + THRESHOLD; i != last; ++i) {
                unguardedLinearInsert(a, i, c);
            }
        } else {
            insertionSort(a, first, last, c);
        }
    }

    private static void insertionSort(int[] a, int first, int last, IntBefore c) {
        if (first == last) {
            return;
        }
        for (int i = first + 1; i != last; ++i) {
            if (c.before(a[i], a[first])) {
                int val = a[i];
                System.arraycopy(a, first, a, first + 1, i - first);
                a[first] = val;
            } else {
                unguardedLinearInsert(a, i, c);
            }
        }
    }

    private static void unguardedLinearInsert(int[] a, int last, IntBefore c) {
        int val = a[last];
        int next = last - 1;
        while (c.before(val, a[next])) {
            a[last] = a[next];
            last = next;
            --next;
        }
        a[last] = val;
    }

    private static void makeHeap(int[] a, int first, int last, IntBefore c) {
        int len = last - first;
        if (len < 2) {
            return;
        }
        for (int parent = (len - 2) / 2; ; parent--) {
            adjustHeap(a, first, parent, len, a[first + parent], c);
            if (parent == 0) {
                return;
            }
        }
    }

    private static void sortHeap(int[] a, int first, int last, IntBefore c) {
        while (last - first > 1) {
            --last;
            // __pop_heap(first, last, last)
            int val = a[last];
            a[last] = a[first];
            adjustHeap(a, first, 0, last - first, val, c);
        }
    }

    private static void adjustHeap(int[] a, int first, int holeIndex, int len, int val, IntBefore c) {
        int topIndex = holeIndex;
        int secondChild = holeIndex;
        while (secondChild < (len - 1) / 2) {
            secondChild = 2 * (secondChild + 1);
            if (c.before(a[first + secondChild], a[first + secondChild - 1])) {
                secondChild--;
            }
            a[first + holeIndex] = a[first + secondChild];
            holeIndex = secondChild;
        }
        if ((len & 1) == 0 && secondChild == (len - 2) / 2) {
            secondChild = 2 * (secondChild + 1);
            a[first + holeIndex] = a[first + secondChild - 1];
            holeIndex = secondChild - 1;
        }
        // __push_heap
        int parent = (holeIndex - 1) / 2;
        while (holeIndex > topIndex && c.before(a[first + parent], val)) {
            a[first + holeIndex] = a[first + parent];
            holeIndex = parent;
            parent = (holeIndex - 1) / 2;
        }
        a[first + holeIndex] = val;
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
