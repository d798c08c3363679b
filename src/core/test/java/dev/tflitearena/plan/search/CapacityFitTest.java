package dev.tflitearena.plan.search;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.MinimallocCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The feasibility mode, {@link OptimalPlacer#fit}: fits, proved not to, or out of time. */
class CapacityFitTest {
    private static final Path INSTANCES = Path.of("tests/data/minimalloc");
    private static final OptimalPlacer PLACER = new OptimalPlacer(Duration.ofSeconds(20));

    /**
     * Size, first step, last step. Largest first: the 4 and the first 3 at 0, the second 3 above the 4, the 2
     * above everything: 9. The optimum, 8, puts the long 3 at the bottom.
     */
    static final BufferSet GREEDY_MISSES = set(3, 1, new long[] {4, 2, 2}, new long[] {3, 0, 1},
            new long[] {3, 0, 2}, new long[] {2, 1, 1});

    static BufferSet set(int steps, int alignment, long[]... buffers) {
        List<BufferSet.Buffer> list = new ArrayList<>();
        for (long[] b : buffers) {
            list.add(new BufferSet.Buffer(list.size(), b[0], (int) b[1], (int) b[2]));
        }
        return new BufferSet(list, steps, alignment);
    }

    private static void assertFits(BufferSet buffers, long capacity, OptimalPlacer.Fit fit) {
        assertEquals(OptimalPlacer.Verdict.FITS, fit.verdict());
        buffers.validate(fit.offsets());
        assertTrue(buffers.arenaBytes(fit.offsets()) <= capacity, buffers.arenaBytes(fit.offsets()) + " bytes");
    }

    @Test
    void findsThePackingAtTheOptimumAndNoneBelowTheBound() {
        assertFits(GREEDY_MISSES, 8, PLACER.fit(GREEDY_MISSES, 8));
        OptimalPlacer.Fit below = PLACER.fit(GREEDY_MISSES, 7);
        assertEquals(OptimalPlacer.Verdict.DOES_NOT_FIT, below.verdict());
        assertNull(below.offsets());
    }

    @Test
    void provesByTheSearchWhatTheByteCountAllows() {
        // Two 3-byte buffers at once with offsets aligned to 4: 6 bytes live, but the upper one starts at 4.
        BufferSet aligned = set(1, 4, new long[] {3, 0, 0}, new long[] {3, 0, 0});
        assertEquals(6, aligned.lowerBound());
        assertEquals(OptimalPlacer.Verdict.DOES_NOT_FIT, PLACER.fit(aligned, 6).verdict());
        assertFits(aligned, 7, PLACER.fit(aligned, 7));
    }

    @Test
    void saysWhenTimeRanOut() throws IOException {
        BufferSet a = MinimallocCsv.read(INSTANCES.resolve("A.1048576.csv"));
        OptimalPlacer.Fit fit = new OptimalPlacer(Duration.ZERO).fit(a, 1_048_576);
        assertEquals(OptimalPlacer.Verdict.TIMED_OUT, fit.verdict());
        assertNull(fit.offsets());
    }

    /** D is the one whose optimum is not proven; C's bound is below its capacity too. */
    @ParameterizedTest
    @ValueSource(strings = {"C", "D"})
    void theSharedInstancesFitTheirCapacity(String name) throws IOException {
        BufferSet buffers = MinimallocCsv.read(INSTANCES.resolve(name + ".1048576.csv"));
        assertFits(buffers, 1_048_576, PLACER.fit(buffers, 1_048_576));
    }
}
