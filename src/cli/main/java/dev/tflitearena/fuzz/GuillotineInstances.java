package dev.tflitearena.fuzz;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Seeded placement instances of the shape of MiniMalloc's hard ones (150-450 buffers, times and sizes in
 * steps of 1 KiB up to 1 MiB, a capacity of 1,048,576 bytes), which the exact search was never tuned on.
 * A full time x memory rectangle is cut in two, again and again, across time or across memory at a random
 * KiB, the piece to cut chosen with odds by its area, until there are as many pieces as buffers; each piece
 * is a buffer, live over its times with its height as size, and the buffers are shuffled. The pieces'
 * places are a packing at capacity, so every instance fits, with every step full: nothing to spare.
 *
 * <p>A harder one asks for less: the buffers crossing one random height (one at each time, so together they
 * span all of it) are taken out, and the capacity asked is the lower bound of the rest, which the packing
 * left behind need not meet. Whether it fits is not known in advance.
 */
public final class GuillotineInstances {
    public static final long CAPACITY = 1 << 20;
    private static final int UNIT = 1 << 10;
    private static final int UNITS = (int) (CAPACITY / UNIT);
    public static final int MIN_BUFFERS = 150;
    public static final int MAX_BUFFERS = 450;

    /**
     * @param csv      the instance in MiniMalloc's format, header first
     * @param capacity the arena asked for
     * @param packing  offsets per buffer in CSV order that fit the capacity, when known (the full instances)
     */
    public record Instance(long seed, boolean harder, List<String> csv, long capacity, long[] packing) {
        public BufferSet buffers() {
            return MinimallocCsv.parse(csv);
        }
    }

    private GuillotineInstances() {
    }

    /** Instance {@code index} of a run with {@code seed}: a function of the two alone. */
    public static Instance of(long seed, int index, boolean harder) {
        long instanceSeed = seed * 0x9E3779B97F4A7C15L + index;
        Random random = new Random(instanceSeed);
        List<int[]> pieces = cut(random, MIN_BUFFERS + random.nextInt(MAX_BUFFERS - MIN_BUFFERS + 1));
        Collections.shuffle(pieces, random);
        if (harder) {
            int height = random.nextInt(UNITS);
            pieces.removeIf(p -> p[2] <= height && height < p[3]);
        }
        List<String> csv = new ArrayList<>(pieces.size() + 1);
        csv.add("id,lower,upper,size");
        long[] packing = new long[pieces.size()];
        for (int i = 0; i < pieces.size(); i++) {
            int[] p = pieces.get(i);
            csv.add(i + "," + (long) p[0] * UNIT + "," + (long) p[1] * UNIT + "," + (long) (p[3] - p[2]) * UNIT);
            packing[i] = (long) p[2] * UNIT;
        }
        long capacity = harder ? MinimallocCsv.parse(csv).lowerBound() : CAPACITY;
        return new Instance(instanceSeed, harder, csv, capacity, harder ? null : packing);
    }

    /** The full square in {@code count} pieces, each {from, to, bottom, top} in units, half open. */
    private static List<int[]> cut(Random random, int count) {
        List<int[]> pieces = new ArrayList<>(count);
        pieces.add(new int[] {0, UNITS, 0, UNITS});
        while (pieces.size() < count) {
            int[] piece = pieces.get(byArea(random, pieces));
            int across = piece[1] - piece[0] > 1 && (piece[3] - piece[2] == 1 || random.nextBoolean()) ? 0 : 2;
            int at = piece[across] + 1 + random.nextInt(piece[across + 1] - piece[across] - 1);
            int[] other = piece.clone();
            piece[across + 1] = at;
            other[across] = at;
            pieces.add(other);
        }
        return pieces;
    }

    /** A piece that can still be cut, with odds by its area. */
    private static int byArea(Random random, List<int[]> pieces) {
        long total = 0;
        for (int[] p : pieces) {
            total += area(p);
        }
        long pick = Math.min((long) (random.nextDouble() * total), total - 1);
        int i = 0;
        for (pick -= area(pieces.get(0)); pick >= 0; pick -= area(pieces.get(i))) {
            i++;
        }
        return i;
    }

    /** A piece one unit square cannot be cut: it counts for nothing. */
    private static long area(int[] p) {
        long area = (long) (p[1] - p[0]) * (p[3] - p[2]);
        return area == 1 ? 0 : area;
    }
}
