package dev.tflitearena.isolation;

/**
 * What a JVM's fatal error report says of a crash in native code, read from the lines it prints to standard
 * output when it dies, each starting with '#': the signal ("SIGSEGV (0xb) at pc=…") and the problematic frame
 * ("C  [libjnitensorflowlite.so+0x918873]  xnn_create_convolution2d_nhwc_f32_f16+0x113").
 */
final class CrashReport {
    private final StringBuilder summary = new StringBuilder();
    private String signal;
    private boolean frameNext;

    /** Whether the line is one of the report's. */
    static boolean isReportLine(String line) {
        return line.startsWith("#");
    }

    void read(String line) {
        String text = line.substring(1).strip();
        if (text.startsWith("SIG") && signal == null) {
            signal = text.split(" ", 2)[0];
        }
        if (text.startsWith("SIG") || frameNext) {
            summary.append(summary.isEmpty() ? "" : "; ").append(text);
        }
        frameNext = text.startsWith("Problematic frame");
    }

    /** The signal's name, such as SIGFPE; null before the report names it. */
    String signal() {
        return signal;
    }

    boolean isEmpty() {
        return summary.isEmpty();
    }

    @Override
    public String toString() {
        return summary.toString();
    }
}
