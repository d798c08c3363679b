package dev.tflitearena.plan.place;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Tries the greedy orders under every fit rule, and the three greedy placers, and keeps the smallest arena;
 * it stops early at the lower bound, which none can beat.
 */
public final class BestOfPlacer implements Placer {
    public static final String NAME = "best-of";

    private static final List<Function<BufferSet, int[]>> ORDERS = List.of(GreedyOrder::bySizeDescending,
            GreedyOrder::byFirstStep, GreedyOrder::byLifetimeDescending, GreedyOrder::byBreadth,
            GreedyOrder::tflite);
    private static final List<Placer> PLACERS =
            List.of(new TflmGreedyPlacer(), new GreedyBySizePlacer(), new GreedyByBreadthPlacer());

    @Override
    public Solution place(BufferSet buffers) {
        long bound = buffers.lowerBound();
        long[] best = null;
        for (Supplier<long[]> member : members(buffers)) {
            long[] offsets = member.get();
            if (best == null || buffers.arenaBytes(offsets) < buffers.arenaBytes(best)) {
                best = offsets;
            }
            if (buffers.arenaBytes(best) == bound) {
                break;
            }
        }
        return new Solution(best, buffers.arenaBytes(best) == bound);
    }

    /** The placements it chooses from, each computed when asked for. */
    static List<Supplier<long[]>> members(BufferSet buffers) {
        List<Supplier<long[]>> members = new ArrayList<>();
        for (Function<BufferSet, int[]> order : ORDERS) {
            for (GreedyFit.Rule rule : GreedyFit.Rule.values()) {
                members.add(() -> GreedyFit.place(buffers, order.apply(buffers), rule));
            }
        }
        for (Placer placer : PLACERS) {
            members.add(() -> placer.place(buffers).offsets());
        }
        return members;
    }

    @Override
    public String name() {
        return NAME;
    }
}
