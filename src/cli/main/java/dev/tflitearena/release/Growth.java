package dev.tflitearena.release;

import java.util.Locale;

/** A figure's change from one report to the next, in percent of the first. */
record Growth(double before, double after) {
    /** Infinite when a figure grows from 0; 0 when it stays 0. */
    double percent() {
        if (before == 0) {
            return after == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return (after - before) / before * 100;
    }

    boolean beyond(double thresholdPercent) {
        return Math.abs(percent()) > thresholdPercent;
    }

    @Override
    public String toString() {
        double p = percent();
        return Double.isInfinite(p) ? "from 0" : String.format(Locale.ROOT, "%+.1f%%", p);
    }
}
