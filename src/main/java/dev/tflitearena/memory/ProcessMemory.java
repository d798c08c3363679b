package dev.tflitearena.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's resident set size, as Linux reports it in {@code /proc/self/status}. */
public final class ProcessMemory {
    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessMemory() {
    }

    /** VmRSS in bytes. */
    public static long residentBytes() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    // "VmRSS:     123456 kB"
                    return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException(STATUS + " has no VmRSS line: not Linux?");
    }
}
