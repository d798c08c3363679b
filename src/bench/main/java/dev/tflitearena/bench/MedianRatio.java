package dev.tflitearena.bench;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The ratio of two samples' medians, with a 95% percentile-bootstrap interval: each sample is resampled with
 * replacement, independently, {@value #RESAMPLES} times, and the interval holds the middle 95% of the
 * resampled ratios. Medians, since on a shared machine a few slow iterations are noise, not signal; a
 * bootstrap, since a ratio of medians has no simple error formula. The seed is fixed, so the same JMH
 * results always give the same interval.
 */
public record MedianRatio(double ratio, double low, double high) {
    static final int RESAMPLES = 2000;
    private static final long SEED = 1;

    /** {@code numerator}'s median over {@code denominator}'s. */
    public static MedianRatio of(double[] numerator, double[] denominator) {
        SplittableRandom random = new SplittableRandom(SEED);
        double[] ratios = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            ratios[i] = median(resample(numerator, random)) / median(resample(denominator, random));
        }
        Arrays.sort(ratios);
        return new MedianRatio(median(numerator) / median(denominator),
                ratios[(int) Math.floor(0.025 * (RESAMPLES - 1))], ratios[(int) Math.ceil(0.975 * (RESAMPLES - 1))]);
    }

    /** The middle value, or the mean of the two middle values of an even count. */
    public static double median(double[] sample) {
        if (sample.length == 0) {
            throw new IllegalArgumentException("the median of no values");
        }
        double[] sorted = sample.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static double[] resample(double[] sample, SplittableRandom random) {
        double[] drawn = new double[sample.length];
        for (int i = 0; i < drawn.length; i++) {
            drawn[i] = sample[random.nextInt(sample.length)];
        }
        return drawn;
    }
}
