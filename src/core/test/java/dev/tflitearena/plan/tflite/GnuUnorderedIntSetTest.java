package dev.tflitearena.plan.tflite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Expected orders and bucket counts were printed by g++ 12.2 / libstdc++ 12 for the same insertions. */
class GnuUnorderedIntSetTest {

    private static GnuUnorderedIntSet of(int... values) {
        GnuUnorderedIntSet s = new GnuUnorderedIntSet();
        for (int v : values) {
            s.insert(v);
        }
        return s;
    }

    @Test
    void emptySetHasOneBucketAndNoElements() {
        GnuUnorderedIntSet s = new GnuUnorderedIntSet();
        assertEquals(0, s.size());
        assertEquals(1, s.bucketCount());
        assertArrayEquals(new int[0], s.iterationOrder());
        assertFalse(s.contains(0));
    }

    @Test
    void distinctResiduesIterateInReverseInsertionOrder() {
        GnuUnorderedIntSet s = of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        assertEquals(13, s.bucketCount());
        assertArrayEquals(new int[] {12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, s.iterationOrder());
    }

    @Test
    void fourteenthElementRehashesTo29AndReversesTheChain() {
        GnuUnorderedIntSet s = of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
        assertEquals(29, s.bucketCount());
        assertArrayEquals(new int[] {13, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, s.iterationOrder());
    }

    @Test
    void collidingValuesGoBeforeTheFirstOfTheirBucket() {
        assertArrayEquals(new int[] {2, 14, 1, 39, 26, 13, 0}, of(0, 13, 26, 1, 14, 39, 2).iterationOrder());
        assertArrayEquals(new int[] {44, 31, 18, 5}, of(5, 18, 31, 5, 44, 18).iterationOrder());
        assertArrayEquals(new int[] {24, 7, 6, 18, 5, 30, 4, 3, 0},
                of(0, 3, 4, 3, 4, 5, 6, 7, 24, 18, 30).iterationOrder());
    }

    @Test
    void rehashWalksTheOldChainFrontToBack() {
        int[] multiplesOf13 = new int[30];
        for (int i = 0; i < 30; i++) {
            multiplesOf13[i] = 13 * i;
        }
        GnuUnorderedIntSet s = of(multiplesOf13);
        assertEquals(59, s.bucketCount());
        assertArrayEquals(new int[] {377, 156, 143, 130, 117, 104, 91, 78, 65, 52, 39, 26, 13, 0, 169, 182, 195,
            208, 221, 234, 247, 260, 273, 286, 299, 312, 325, 338, 351, 364}, s.iterationOrder());

        int[] descending = new int[30];
        for (int i = 0; i < 30; i++) {
            descending[i] = 29 - i;
        }
        assertArrayEquals(new int[] {0, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 16, 15, 14, 13, 12, 11,
            10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, of(descending).iterationOrder());
    }

    @Test
    void negativeValuesHashAsSignExtendedSizeT() {
        assertArrayEquals(new int[] {7, Integer.MAX_VALUE, Integer.MIN_VALUE, 5, -13, -1},
                of(-1, -13, 5, Integer.MAX_VALUE, Integer.MIN_VALUE, 7).iterationOrder());
    }

    @Test
    void bucketCountGrowsWhenSizeWouldExceedIt() {
        // {size at which the count changes, new count}, from libstdc++.
        int[][] growth = {{1, 13}, {14, 29}, {30, 59}, {60, 127}, {128, 257}, {258, 541}, {542, 1109},
            {1110, 2357}, {2358, 5087}, {5088, 10273}, {10274, 20753}, {20754, 42043}};
        GnuUnorderedIntSet s = new GnuUnorderedIntSet();
        int step = 0;
        int expected = 1;
        for (int n = 1; n <= 25000; n++) {
            s.insert(n * 7);
            if (step < growth.length && growth[step][0] == n) {
                expected = growth[step++][1];
            }
            assertEquals(expected, s.bucketCount(), "size " + n);
        }
        assertEquals(growth.length, step);
    }

    @Test
    void duplicateInsertChangesNothing() {
        GnuUnorderedIntSet s = of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        int[] before = s.iterationOrder();
        assertFalse(s.insert(5));
        assertEquals(13, s.size());
        assertEquals(13, s.bucketCount());
        assertArrayEquals(before, s.iterationOrder());
        assertTrue(s.insert(13));
        assertEquals(29, s.bucketCount());
    }

    @Test
    void matchesLibstdcxxOnRecordedCases() throws IOException {
        int cases = 0;
        for (String line : resourceLines("/gnu/unordered_set_cases.txt")) {
            String[] parts = line.split("\\|");
            int[] inserts = ints(parts[0]);
            int[] expected = ints(parts[1]);
            GnuUnorderedIntSet s = of(inserts);
            assertArrayEquals(expected, s.iterationOrder(), "inserts: " + parts[0]);
            assertEquals(expected.length, s.size());
            assertEquals(Integer.parseInt(parts[2].trim()), s.bucketCount(), "inserts: " + parts[0]);
            cases++;
        }
        assertEquals(13, cases);
    }

    @Test
    void orderIsAPermutationOfTheDistinctInsertedValues() {
        Random rnd = new Random(12345);
        for (int round = 0; round < 300; round++) {
            int n = rnd.nextInt(round < 250 ? 60 : 2000);
            int range = 1 + rnd.nextInt(round % 2 == 0 ? 100 : 100000);
            GnuUnorderedIntSet s = new GnuUnorderedIntSet();
            Set<Integer> distinct = new LinkedHashSet<>();
            for (int i = 0; i < n; i++) {
                int v = rnd.nextInt(range);
                assertEquals(distinct.add(v), s.insert(v));
            }
            assertEquals(distinct.size(), s.size());
            int[] order = s.iterationOrder();
            int[] sortedOrder = order.clone();
            Arrays.sort(sortedOrder);
            int[] sortedDistinct = distinct.stream().mapToInt(Integer::intValue).sorted().toArray();
            assertArrayEquals(sortedDistinct, sortedOrder);
            for (int v : distinct) {
                assertTrue(s.contains(v));
            }
            assertFalse(s.contains(range));
            assertTrue(s.size() <= s.bucketCount());
        }
    }

    static List<String> resourceLines(String name) throws IOException {
        List<String> lines = new ArrayList<>();
        try (InputStream in = GnuUnorderedIntSetTest.class.getResourceAsStream(name)) {
            assertNotNull(in, name);
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("//")) {
                    lines.add(line);
                }
            }
        }
        return lines;
    }

    static int[] ints(String s) {
        s = s.trim();
        return s.isEmpty() ? new int[0] : Arrays.stream(s.split("\\s+")).mapToInt(Integer::parseInt).toArray();
    }
}
