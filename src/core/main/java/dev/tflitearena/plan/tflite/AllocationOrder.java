package dev.tflitearena.plan.tflite;

import dev.tflitearena.plan.Lifetimes;

/**
 * The comparator TFLite's ArenaPlanner gives std::sort ({@code CompareBySize}): whole-lifetime tensors first
 * by index, then by size descending and first node ascending. It reads arrays only, because the sort calls it
 * a few thousand times per plan.
 */
final class AllocationOrder implements GnuIntroSort.IntBefore {
    private final Lifetimes lifetimes;
    private final long[] bytes;

    /** {@code bytes} is each tensor's size, by tensor index. */
    AllocationOrder(Lifetimes lifetimes, long[] bytes) {
        this.lifetimes = lifetimes;
        this.bytes = bytes;
    }

    @Override
    public boolean before(int a, int b) {
        boolean wholeA = lifetimes.isWholeLifetime(a);
        boolean wholeB = lifetimes.isWholeLifetime(b);
        if (wholeA || wholeB) {
            return wholeA && wholeB ? a < b : wholeA;
        }
        if (bytes[a] != bytes[b]) {
            return bytes[a] > bytes[b];
        }
        return lifetimes.allocNode(a) < lifetimes.allocNode(b);
    }
}
