package dev.tflitearena.plan.place;

/**
 * "Greedy by size" of TFLite's GPU delegate (GreedyBySizeAssignment; Pisarchyk and Lee, 2020): buffers
 * largest first, each into the smallest gap that fits it among the placed buffers live with it, else above
 * them, every gap starting at the alignment.
 */
public final class GreedyBySizePlacer implements Placer {
    public static final String NAME = "greedy-by-size";

    @Override
    public Solution place(BufferSet buffers) {
        return GreedyFit.solution(buffers,
                GreedyFit.place(buffers, GreedyOrder.bySizeDescending(buffers), GreedyFit.Rule.SMALLEST_GAP));
    }

    @Override
    public String name() {
        return NAME;
    }
}
