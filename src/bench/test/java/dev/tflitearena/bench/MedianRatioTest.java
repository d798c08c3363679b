package dev.tflitearena.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MedianRatioTest {
    @Test
    void medianOfOddAndEvenCountsAndOfNothing() {
        assertEquals(2.0, MedianRatio.median(new double[] {3, 1, 2}));
        assertEquals(2.5, MedianRatio.median(new double[] {4, 1, 3, 2}));
        assertThrows(IllegalArgumentException.class, () -> MedianRatio.median(new double[0]));
    }

    @Test
    void constantSamplesHaveAnIntervalOfOnePoint() {
        assertEquals(new MedianRatio(2.0, 2.0, 2.0), MedianRatio.of(new double[] {4, 4, 4}, new double[] {2, 2}));
    }
}
