package dev.tflitearena.plan.search;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.GreedyFit;
import dev.tflitearena.plan.place.GreedyOrder;
import dev.tflitearena.plan.place.Placer;

import java.time.Duration;
import java.util.List;

/**
 * The smallest arena it can prove within a time limit: an exact search that starts from a greedy placement and
 * keeps asking {@link CapacitySearch} whether the buffers fit in a smaller capacity. A placement that fits
 * lowers the best arena to its own; a search that ends without one raises the proven lower bound past the
 * capacity it tried. It stops when the two meet (the plan is optimal) or when time is up (the plan is the best
 * found, the bound what was proved).
 *
 * <p>Each search gets a node budget, and two kinds of question share the work equally. Proving asks about
 * the lower bound, where a fit ends everything; when the budget runs out there, the budget doubles.
 * Improving asks halfway between the best arena and the highest capacity it gave up on, where fits come
 * easier; when what is left between the two would save less than a 64th of the gap to the lower bound, its
 * budget doubles and it starts again from halfway between the bounds.
 */
public final class OptimalPlacer implements Placer {
    public static final String NAME = "optimal";

    /** Beyond this many overlap list entries (4 bytes each) the search would take too much memory. */
    private static final long MAX_OVERLAPS = 1L << 25;

    private final Duration timeLimit;

    /**
     * @param offsets       per buffer of the set, in its order
     * @param arena         the highest end of any buffer
     * @param lowerBound    what no placement can beat: the fullest step's bytes, or a capacity proved too small
     * @param provenOptimal the arena equals the lower bound
     * @param timedOut      the time limit ended the search before a proof
     * @param millis        the time taken
     */
    public record Result(long[] offsets, long arena, long lowerBound, boolean provenOptimal, boolean timedOut,
                         long millis) {
    }

    /** What a feasibility search ends with. */
    public enum Verdict { FITS, DOES_NOT_FIT, TIMED_OUT }

    /**
     * @param verdict whether the buffers fit in the capacity, cannot, or time ran out first
     * @param offsets per buffer of the set when they fit, else null
     * @param millis  the time taken
     */
    public record Fit(Verdict verdict, long[] offsets, long millis) {
    }

    public OptimalPlacer(Duration timeLimit) {
        this.timeLimit = timeLimit;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Solution place(BufferSet buffers) {
        return place(buffers, null);
    }

    @Override
    public Solution place(BufferSet buffers, long[] start) {
        Result result = solve(buffers, start);
        return new Solution(result.offsets(), result.provenOptimal());
    }

    public Result solve(BufferSet buffers) {
        return solve(buffers, null);
    }

    /**
     * As {@link #solve(BufferSet)}, starting from {@code start} (offsets in set order, such as another
     * planner's) when it beats the greedy placements; the arena is then never larger than its.
     */
    public Result solve(BufferSet buffers, long[] start) {
        long begin = System.nanoTime();
        long deadline = begin + timeLimit.toNanos();
        // Largest first into the tightest gap, and TFLite's own order and fit, so as not to start behind it.
        long[] best = GreedyFit.place(buffers, GreedyOrder.bySizeDescending(buffers), GreedyFit.Rule.SMALLEST_GAP);
        long[] tflite = GreedyFit.place(buffers, GreedyOrder.tflite(buffers), GreedyFit.Rule.ARENA_BEST);
        if (buffers.arenaBytes(tflite) < buffers.arenaBytes(best)) {
            best = tflite;
        }
        if (start != null) {
            buffers.validate(start);
            if (buffers.arenaBytes(start) < buffers.arenaBytes(best)) {
                best = start.clone();
            }
        }
        Descent descent = new Descent(best, buffers.arenaBytes(best), buffers.lowerBound());
        // The search packs an offset below the best arena and a rank into one long.
        if (descent.lower < descent.upper && TimeSections.overlaps(buffers) <= MAX_OVERLAPS
                && descent.upper < Long.MAX_VALUE / (buffers.buffers().size() + 1)) {
            descent.run(TimeSections.of(buffers), deadline);
        }
        return new Result(descent.best, descent.upper, Math.min(descent.lower, descent.upper),
                descent.lower >= descent.upper, descent.timedOut, (System.nanoTime() - begin) / 1_000_000);
    }

    /**
     * Whether {@code buffers} fit in {@code capacity} bytes, as MiniMalloc answers it: the capacity search in
     * each order in turn, every round with twice the node budget of the last, until one order ends, in a fit
     * or a proof that none exists, or the time limit.
     */
    public Fit fit(BufferSet buffers, long capacity) {
        long begin = System.nanoTime();
        long deadline = begin + timeLimit.toNanos();
        long[] greedy = GreedyFit.place(buffers, GreedyOrder.bySizeDescending(buffers), GreedyFit.Rule.SMALLEST_GAP);
        Verdict verdict;
        long[] offsets = null;
        if (buffers.arenaBytes(greedy) <= capacity) {
            verdict = Verdict.FITS;
            offsets = greedy;
        } else if (buffers.lowerBound() > capacity || TimeSections.overlaps(buffers) > MAX_OVERLAPS
                || capacity >= Long.MAX_VALUE / (buffers.buffers().size() + 1)) {
            verdict = buffers.lowerBound() > capacity ? Verdict.DOES_NOT_FIT : Verdict.TIMED_OUT;
        } else {
            TimeSections sections = TimeSections.of(buffers);
            CapacitySearch search = new CapacitySearch(sections);
            List<SearchOrder> orders = SearchOrder.all(sections);
            CapacitySearch.Outcome outcome = CapacitySearch.Outcome.GAVE_UP;
            for (long limit = 2L * sections.buffers(); outcome == CapacitySearch.Outcome.GAVE_UP
                    && System.nanoTime() - deadline < 0; limit *= 2) {
                for (int i = 0; i < orders.size() && outcome == CapacitySearch.Outcome.GAVE_UP; i++) {
                    outcome = search.run(capacity, orders.get(i), limit, deadline);
                }
            }
            verdict = switch (outcome) {
                case FITS -> Verdict.FITS;
                case DOES_NOT_FIT -> Verdict.DOES_NOT_FIT;
                case GAVE_UP -> Verdict.TIMED_OUT;
            };
            if (verdict == Verdict.FITS) {
                offsets = sections.toSetOrder(search.solution());
            }
        }
        return new Fit(verdict, offsets, (System.nanoTime() - begin) / 1_000_000);
    }

    /** The state of one descent: the best placement and its arena, the proven bound. */
    private static final class Descent {
        long[] best;
        long upper;
        long lower;
        boolean timedOut;

        Descent(long[] best, long upper, long lower) {
            this.best = best;
            this.upper = upper;
            this.lower = lower;
        }

        void run(TimeSections sections, long deadline) {
            lower = Math.max(lower, sections.lowerBound());
            CapacitySearch search = new CapacitySearch(sections);
            List<SearchOrder> orders = SearchOrder.all(sections);
            long provingLimit = 2L * sections.buffers();
            long improvingLimit = provingLimit;
            long provingWork = 0;
            long improvingWork = 0;
            long givenUp = lower - 1;
            while (lower < upper) {
                if (System.nanoTime() - deadline > 0) {
                    timedOut = true;
                    return;
                }
                if (upper - givenUp <= Math.max(1, (upper - lower) / 64)) {
                    improvingLimit *= 2;
                    givenUp = lower - 1;
                }
                boolean improving = improvingWork < provingWork;
                long from = Math.max(givenUp, lower);
                long capacity = improving ? from + (upper - from) / 2 : lower;
                long limit = improving ? improvingLimit : provingLimit;
                CapacitySearch.Outcome outcome = CapacitySearch.Outcome.GAVE_UP;
                long work = 0;
                for (int i = 0; i < orders.size() && outcome == CapacitySearch.Outcome.GAVE_UP; i++) {
                    outcome = search.run(capacity, orders.get(i), limit, deadline);
                    work += search.nodes();
                }
                if (improving) {
                    improvingWork += work;
                } else {
                    provingWork += work;
                }
                switch (outcome) {
                    case FITS -> {
                        best = sections.toSetOrder(search.solution());
                        upper = sections.set.arenaBytes(best);
                    }
                    case DOES_NOT_FIT -> lower = search.nextCapacity();
                    case GAVE_UP -> {
                        if (improving) {
                            givenUp = capacity;
                        } else {
                            provingLimit *= 2;
                        }
                    }
                }
            }
        }
    }
}
