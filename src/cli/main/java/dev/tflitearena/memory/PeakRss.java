package dev.tflitearena.memory;

/**
 * The highest RSS of one run. Where the kernel lets VmHWM be reset that is the kernel's own mark, which
 * catches a peak between two reads; elsewhere it is the largest VmRSS read, which can miss one.
 */
final class PeakRss {
    private final boolean kernelMark;
    private final long start;
    private long sampled;

    private PeakRss(boolean kernelMark) {
        this.kernelMark = kernelMark;
        this.start = ProcessMemory.residentBytes();
        this.sampled = start;
    }

    /** Starts a run's peak from the current RSS. */
    static PeakRss start() {
        return new PeakRss(ProcessMemory.resetPeak());
    }

    /** The peak so far. */
    long read() {
        // VmHWM reads as the larger of the kernel's recorded mark and the current RSS, and the kernel records its
        // mark lazily: once RSS has fallen, a later read can be lower than an earlier one (seen in a test).
        sampled = Math.max(sampled, kernelMark ? ProcessMemory.peakBytes() : ProcessMemory.residentBytes());
        return sampled;
    }

    /** The RSS the run started from: runs of one process start higher as the JVM grows. */
    long startBytes() {
        return start;
    }

    /** How {@link #read()} measures, for the report. */
    String source() {
        return kernelMark ? "VmHWM" : "sampled VmRSS";
    }
}
