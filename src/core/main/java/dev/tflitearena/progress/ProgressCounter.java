package dev.tflitearena.progress;

/** The items of a task of known size, counted as they begin, for a task whose steps are spread over methods. */
public final class ProgressCounter {
    private final Progress progress;
    private final long total;
    private long done;

    public ProgressCounter(Progress progress, long total) {
        this.progress = progress;
        this.total = total;
    }

    /** Reports the next item, {@code label}, as begun: the ones before it as done. */
    public void next(String label) {
        progress.advance(done++, total, label);
    }
}
