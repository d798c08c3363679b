package dev.tflitearena.plan.tflite;

import dev.tflitearena.plan.Lifetimes;

/**
 * The comparator TFLite's ArenaPlanner gives std::sort ({@code CompareBySize}): whole-lifetime tensors first
 * by index, then by size descending and first node ascending. The sort calls it a few thousand times per plan,
 * so the rule is folded once per tensor into a two-part key: {@code Long.MIN_VALUE} then the index for a
 * whole-lifetime tensor, minus its size then its first node for the others (no size reaches
 * {@code -Long.MIN_VALUE}, so the whole-lifetime ones always come first).
 */
final class AllocationOrder implements GnuIntroSort.IntBefore {
    private final long[] primary;
    private final int[] secondary;

    /** {@code bytes} is each tensor's size, by tensor index. */
    AllocationOrder(Lifetimes lifetimes, long[] bytes) {
        primary = new long[bytes.length];
        secondary = new int[bytes.length];
        for (int t = 0; t < bytes.length; t++) {
            boolean whole = lifetimes.isWholeLifetime(t);
            primary[t] = whole ? Long.MIN_VALUE : -bytes[t];
            secondary[t] = whole ? t : lifetimes.allocNode(t);
        }
    }

    @Override
    public boolean before(int a, int b) {
        return primary[a] < primary[b] || (primary[a] == primary[b] && secondary[a] < secondary[b]);
    }
}
