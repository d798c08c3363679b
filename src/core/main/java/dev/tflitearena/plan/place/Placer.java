package dev.tflitearena.plan.place;

/** A placement strategy over a {@link BufferSet}. */
public interface Placer {

    /**
     * Offsets in the set's buffer order; {@code provenOptimal} when no placement of the set can have a
     * smaller arena (the strategy proved it, or the arena meets the lower bound).
     */
    record Solution(long[] offsets, boolean provenOptimal) {
    }

    /** The name users select it by, as in {@code --planner NAME}. */
    String name();

    Solution place(BufferSet buffers);

    /**
     * As {@link #place(BufferSet)}, given a placement already known to be valid (such as TFLite's own): a
     * placer that can improve on a start uses it, so that its arena is never larger; the others ignore it.
     */
    default Solution place(BufferSet buffers, long[] start) {
        return place(buffers);
    }
}
