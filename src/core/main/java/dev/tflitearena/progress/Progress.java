package dev.tflitearena.progress;

/**
 * Where a long task says how far it has come; the command line shows it on standard error. Before each of a
 * known number of items the task calls {@link #advance}; before a part whose extent it does not know, {@link #step}.
 * Calls may come from several threads.
 */
public interface Progress {
    /** Progress nobody follows. */
    Progress NONE = new Progress() {
        @Override
        public void advance(long done, long total, String label) {
        }

        @Override
        public void step(String label) {
        }
    };

    /** {@code done} of {@code total} items are finished; {@code label} says what is under way or counted. */
    void advance(long done, long total, String label);

    /** {@code label} is under way, in a task of unknown extent. */
    void step(String label);
}
