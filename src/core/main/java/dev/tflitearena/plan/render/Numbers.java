package dev.tflitearena.plan.render;

import java.util.Locale;

/** How the pictures write numbers, the same in every renderer and independent of the JVM's locale. */
final class Numbers {
    private static final long KIB = 1024;
    private static final long MIB = KIB * KIB;

    private Numbers() {
    }

    /** Exact, with thousands separators: {@code 1,204,224 B}. */
    static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d B", bytes);
    }

    /** Rounded to one decimal in the largest unit that keeps it at least 1: {@code 1.1 MiB}, {@code 4 KiB}. */
    static String human(long bytes) {
        if (Math.abs(bytes) < KIB) {
            return bytes + " B";
        }
        boolean mebi = Math.abs(bytes) >= MIB;
        return decimal((double) bytes / (mebi ? MIB : KIB)) + (mebi ? " MiB" : " KiB");
    }

    /** One decimal at most, none when it is 0: {@code 4}, {@code 4.5}. */
    static String decimal(double value) {
        String number = String.format(Locale.ROOT, "%.1f", value);
        return number.endsWith(".0") ? number.substring(0, number.length() - 2) : number;
    }

    /** Both, so that a reader sees the scale and can still compare exact sizes: {@code 1.1 MiB (1,204,224 B)}. */
    static String size(long bytes) {
        return Math.abs(bytes) < KIB ? bytes(bytes) : human(bytes) + " (" + bytes(bytes) + ")";
    }

    /** A fraction as a percentage with one decimal: 0.0714 is {@code 7.1%}. */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    /** {@code 1 tensor}, {@code 3 tensors}. */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /**
     * A round step for ticks along memory, at or above {@code raw} bytes: 1, 2 or 5 times a power of ten of the unit
     * its labels will be written in, so that the labels come out round ({@code 512 KiB}, {@code 1 MiB}).
     */
    static long byteStep(double raw) {
        long unit = raw >= MIB / 2.0 ? MIB : raw >= KIB / 2.0 ? KIB : 1;
        return Math.max(1, Math.round(unit * niceStep(raw / unit)));
    }

    /** The 1, 2 or 5 times a power of ten at or above {@code raw}: tick steps a reader can add up. */
    static double niceStep(double raw) {
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        double leading = raw / power;
        return power * (leading <= 1 ? 1 : leading <= 2 ? 2 : leading <= 5 ? 5 : 10);
    }
}
