package dev.tflitearena.release.compare;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedRatioTest {
    @Test
    void criticalValuesAreThoseOfTheSignedRankTables() {
        // Two-sided 5%: reject for T <= 8 with 10 rounds, T <= 52 with 20, T <= 2 with 7; none with 5.
        assertEquals(8, PairedRatio.lowerRank(10, 0.05));
        assertEquals(52, PairedRatio.lowerRank(20, 0.05));
        assertEquals(2, PairedRatio.lowerRank(7, 0.05));
        assertEquals(-1, PairedRatio.lowerRank(5, 0.05));
        assertEquals(6, PairedRatio.minimumRounds(0.95));
        double total = Arrays.stream(PairedRatio.signedRankProbabilities(12)).sum();
        assertEquals(1, total, 1e-12);
    }

    @Test
    void aConstantRatioIsFoundExactly() {
        double[] a = {10, 11, 9, 10, 12, 10, 11, 9, 10, 10};
        double[] b = Arrays.stream(a).map(x -> x * 1.1).toArray();
        PairedRatio r = PairedRatio.of(a, b, 0.95);
        assertEquals(1.1, r.ratio(), 1e-12);
        assertEquals(1.1, r.lo(), 1e-12);
        assertEquals(1.1, r.hi(), 1e-12);
        assertEquals(PairedRatio.Verdict.SLOWER, r.verdict());
        assertEquals("slower by 10.0% [+10.0, +10.0]%", r.toString());
    }

    @Test
    void theIntervalIsTheRankedWalshAverages() {
        // Log ratios 1..10 (in units of 0.01): 55 Walsh averages; with k = 8 the interval runs from the 9th
        // smallest to the 9th largest, and the estimate is their median, 5.5.
        double[] a = new double[10];
        double[] b = new double[10];
        for (int i = 0; i < 10; i++) {
            a[i] = 1;
            b[i] = Math.exp((i + 1) * 0.01);
        }
        PairedRatio r = PairedRatio.of(a, b, 0.95);
        assertEquals(0.055, Math.log(r.ratio()), 1e-12);
        assertEquals(0.03, Math.log(r.lo()), 1e-12);
        assertEquals(0.08, Math.log(r.hi()), 1e-12);
    }

    @Test
    void tooFewRoundsGiveNoVerdict() {
        PairedRatio r = PairedRatio.of(new double[]{1, 1, 1}, new double[]{2, 2, 2}, 0.95);
        assertEquals(PairedRatio.Verdict.NO_CHANGE, r.verdict());
        assertEquals(Double.POSITIVE_INFINITY, r.hi());
        assertTrue(r.toString().contains("too few rounds"), r.toString());
    }

    @Test
    void noChangeIsFlaggedAtMostAsOftenAsTheConfidenceAllows() {
        // Both sides from one distribution, 2000 comparisons of 10 rounds: the exact test's level is 2 P(T <= 8) =
        // 4.88%, so 97.7 flagged are expected, with a standard deviation of 9.6; three of them either way.
        Random random = new Random(7);
        int flagged = 0;
        int comparisons = 2000;
        for (int c = 0; c < comparisons; c++) {
            double[] a = new double[10];
            double[] b = new double[10];
            for (int i = 0; i < 10; i++) {
                double round = 1 + random.nextDouble();
                a[i] = round * Math.exp(0.03 * random.nextGaussian());
                b[i] = round * Math.exp(0.03 * random.nextGaussian());
            }
            if (PairedRatio.of(a, b, 0.95).verdict() != PairedRatio.Verdict.NO_CHANGE) {
                flagged++;
            }
        }
        assertTrue(flagged <= 127 && flagged >= 69, flagged + " of " + comparisons + " flagged");
    }

    @Test
    void fasterReadsAsFaster() {
        double[] a = {10, 10, 10, 10, 10, 10, 10, 10};
        double[] b = {8, 8.1, 7.9, 8, 8.2, 7.8, 8, 8};
        PairedRatio r = PairedRatio.of(a, b, 0.95);
        assertEquals(PairedRatio.Verdict.FASTER, r.verdict());
        assertTrue(r.toString().startsWith("faster by 20.0%"), r.toString());
    }

    @Test
    void badInputIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(new double[]{1}, new double[]{1, 2}, 0.95));
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(new double[]{0}, new double[]{1}, 0.95));
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(new double[]{1}, new double[]{1}, 1));
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(new double[0], new double[0], 0.95));
    }
}
