package dev.tflitearena.plan.tflite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Expected permutations, comparator call counts and call-sequence hashes were printed by g++ 12.2 /
 * libstdc++ 12 running std::sort with the same comparator on the same input.
 */
class GnuIntroSortTest {

    /** The ArenaPlanner comparator of CreateTensorAllocationVector, over keys indexed by tensor. */
    private static GnuIntroSort.IntBefore plannerOrder(int[] w, long[] bytes, int[] node) {
        return (a, b) -> {
            if (w[a] != 0 && w[b] != 0) {
                return a < b;
            }
            if (w[a] != 0) {
                return true;
            }
            if (w[b] != 0) {
                return false;
            }
            if (bytes[a] != bytes[b]) {
                return bytes[a] > bytes[b];
            }
            return node[a] < node[b];
        };
    }

    @Test
    void matchesLibstdcxxOnRecordedCases() throws IOException {
        // Three of these (the adversaries and the median-of-3 killer) exhaust the depth limit and take
        // libstdc++'s heap-sort fallback; the call hash pins that path too.
        List<String> lines = GnuUnorderedIntSetTest.resourceLines("/gnu/intro_sort_cases.txt");
        assertEquals(0, lines.size() % 7);
        for (int i = 0; i < lines.size(); i += 7) {
            String name = lines.get(i);
            int[] w = field(lines.get(i + 1), "w");
            long[] bytes = Arrays.stream(field(lines.get(i + 2), "b")).asLongStream().toArray();
            int[] node = field(lines.get(i + 3), "n");
            int[] in = field(lines.get(i + 4), "in");
            int[] out = field(lines.get(i + 5), "out");
            String[] calls = lines.get(i + 6).split(" ");
            GnuIntroSort.IntBefore order = plannerOrder(w, bytes, node);
            long[] count = {0};
            long[] hash = {0};
            int[] a = new int[in.length + 3];
            a[0] = -5;
            a[a.length - 2] = -6;
            a[a.length - 1] = -7;
            System.arraycopy(in, 0, a, 1, in.length);
            GnuIntroSort.sort(a, 1, 1 + in.length, (x, y) -> {
                count[0]++;
                hash[0] = hash[0] * 0x100000001B3L + (((long) x << 32) | (y & 0xffffffffL));
                return order.before(x, y);
            });
            assertArrayEquals(out, Arrays.copyOfRange(a, 1, 1 + in.length), name);
            assertEquals(Long.parseLong(calls[1]), count[0], name);
            assertEquals(Long.parseLong(calls[2]), hash[0], name);
            assertEquals(-5, a[0]);
            assertEquals(-6, a[a.length - 2]);
            assertEquals(-7, a[a.length - 1]);
        }
        assertEquals(11, lines.size() / 7);
    }

    @Test
    void allTiesAboveTheThresholdAreReorderedLikeLibstdcxx() {
        // From g++: with every pair tied, both partition cursors stop at each element and swap.
        assertArrayEquals(new int[] {8, 16, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1}, sortAllTied(17));
        assertArrayEquals(new int[] {25, 17, 18, 19, 20, 21, 22, 23, 24, 16, 26, 27, 28, 29, 30, 31, 32, 0, 15, 14,
            13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, sortAllTied(33));
    }

    private static int[] sortAllTied(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        GnuIntroSort.sort(a, 0, n, (x, y) -> false);
        return a;
    }

    @Test
    void upToSixteenElementsKeepInputOrderForTies() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = rnd.nextInt(17);
            int[] key = new int[n];
            for (int i = 0; i < n; i++) {
                key[i] = rnd.nextInt(4);
            }
            int[] a = shuffledIdentity(n, rnd);
            int[] input = a.clone();
            GnuIntroSort.sort(a, 0, n, (x, y) -> key[x] < key[y]);
            int[] stable = Arrays.stream(input).boxed()
                    .sorted((x, y) -> Integer.compare(key[x], key[y]))
                    .mapToInt(Integer::intValue).toArray();
            assertArrayEquals(stable, a);
        }
    }

    @Test
    void resultIsASortedPermutation() {
        Random rnd = new Random(99);
        for (int round = 0; round < 300; round++) {
            int n = rnd.nextInt(round < 200 ? 100 : 3000);
            int m = Math.max(1, n);
            int[] w = new int[m];
            long[] bytes = new long[m];
            int[] node = new int[m];
            int sizes = 1 + rnd.nextInt(5);
            for (int i = 0; i < m; i++) {
                w[i] = rnd.nextInt(10) == 0 ? 1 : 0;
                bytes[i] = 64L * (1 + rnd.nextInt(sizes));
                node[i] = rnd.nextInt(1 + rnd.nextInt(10));
            }
            GnuIntroSort.IntBefore order = plannerOrder(w, bytes, node);
            int from = rnd.nextInt(5);
            int[] a = new int[from + n + 2];
            Arrays.fill(a, -1);
            int[] input = shuffledIdentity(n, rnd);
            System.arraycopy(input, 0, a, from, n);
            GnuIntroSort.sort(a, from, from + n, order);
            for (int i = from + 1; i < from + n; i++) {
                assertFalse(order.before(a[i], a[i - 1]), "out of order at " + i);
            }
            int[] got = Arrays.copyOfRange(a, from, from + n);
            Arrays.sort(got);
            Arrays.sort(input);
            assertArrayEquals(input, got);
            for (int i = 0; i < from; i++) {
                assertEquals(-1, a[i]);
            }
            assertEquals(-1, a[a.length - 1]);
            assertEquals(-1, a[a.length - 2]);
        }
    }

    @Test
    void sortsIntsAscendingIncludingAdversarialShapes() {
        int[][] inputs = {musserKiller(76), musserKiller(200), descending(1000), new int[1000]};
        for (int[] input : inputs) {
            int[] a = input.clone();
            GnuIntroSort.sort(a, 0, a.length, (x, y) -> x < y);
            int[] expected = input.clone();
            Arrays.sort(expected);
            assertArrayEquals(expected, a);
        }
    }

    @Test
    void emptyAndSingletonRangesAreNoOps() {
        int[] a = {3, 1, 2};
        GnuIntroSort.IntBefore never = (x, y) -> {
            throw new AssertionError("comparator called");
        };
        GnuIntroSort.sort(a, 1, 1, never);
        GnuIntroSort.sort(a, 2, 3, never);
        assertArrayEquals(new int[] {3, 1, 2}, a);
        GnuIntroSort.sort(new int[0], 0, 0, never);
    }

    @Test
    void rejectsBadRanges() {
        int[] a = new int[4];
        assertThrows(IndexOutOfBoundsException.class, () -> GnuIntroSort.sort(a, 2, 1, (x, y) -> x < y));
        assertThrows(IndexOutOfBoundsException.class, () -> GnuIntroSort.sort(a, 0, 5, (x, y) -> x < y));
        assertArrayEquals(new int[4], a);
    }

    private static int[] field(String line, String tag) {
        String[] parts = line.split(" ", 2);
        assertEquals(tag, parts[0]);
        return GnuUnorderedIntSetTest.ints(parts.length > 1 ? parts[1] : "");
    }

    private static int[] shuffledIdentity(int n, Random rnd) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    /** Musser's median-of-3 killer for an even length k. */
    private static int[] musserKiller(int k) {
        int[] v = new int[k];
        for (int i = 1; i <= k / 2; i++) {
            if (i % 2 == 1) {
                v[i - 1] = i;
                v[i] = k / 2 + i;
            }
            v[k / 2 + i - 1] = 2 * i;
        }
        return v;
    }

    private static int[] descending(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = n - i;
        }
        return a;
    }
}
