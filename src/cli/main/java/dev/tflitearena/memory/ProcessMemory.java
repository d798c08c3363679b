package dev.tflitearena.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's resident set size and its high-water mark, as Linux reports them in {@code /proc/self}. */
public final class ProcessMemory {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

    private ProcessMemory() {
    }

    /** VmRSS in bytes. */
    public static long residentBytes() {
        return statusBytes("VmRSS:");
    }

    /** VmHWM in bytes: the highest VmRSS since the process started or since {@link #resetPeak()}. */
    public static long peakBytes() {
        return statusBytes("VmHWM:");
    }

    /**
     * Lowers VmHWM to the current VmRSS (Linux 4.0 and newer), so that the next peak is the next run's own.
     * Returns false where the kernel or a sandbox refuses, or where the mark did not follow.
     */
    public static boolean resetPeak() {
        try {
            Files.writeString(CLEAR_REFS, "5");
        } catch (IOException | SecurityException e) {
            return false;
        }
        // An old kernel accepts the write but ignores the 5; RSS rises slowly, so right after a reset the two
        // are within a few pages of each other, and far apart if the mark stayed where it was.
        return peakBytes() - residentBytes() < 1024 * 1024;
    }

    private static long statusBytes(String field) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(field)) {
                    // "VmRSS:     123456 kB"
                    return Long.parseLong(line.substring(field.length()).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException(STATUS + " has no " + field + " line: not Linux?");
    }
}
