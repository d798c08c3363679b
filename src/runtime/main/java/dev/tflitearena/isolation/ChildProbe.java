package dev.tflitearena.isolation;

import dev.tflitearena.bridge.presets.NativeException;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;

/**
 * The child side of {@link IsolatedRun}: puts each item of a batch through a probe and reports on standard
 * output, one line per event, the item it begins, each stage it enters and how the item ended. A crash ends
 * the JVM, and the parent learns from the last item and stage begun what did it.
 */
public final class ChildProbe {
    static final String TAG = "probe";

    /** The native work on one item; it reports each stage before entering it. */
    @FunctionalInterface
    public interface Probe {
        void probe(String item, Consumer<String> stage);
    }

    private ChildProbe() {
    }

    /**
     * Probes the items in order: an item is refused when native code refused it (a {@link NativeException} or
     * an {@link IllegalArgumentException}, or an exception wrapping one, as a capture of native code's standard
     * error does), failed on any other exception.
     */
    public static void each(List<String> items, Probe probe) {
        PrintStream out = System.out;
        for (int i = 0; i < items.size(); i++) {
            int item = i;
            report(out, "begin", item, null);
            try {
                probe.probe(items.get(item), stage -> report(out, "stage", item, stage));
                report(out, "ok", item, null);
            } catch (RuntimeException e) {
                boolean refused = isRefusal(e) || isRefusal(e.getCause());
                report(out, refused ? "refused" : "failed", item, refused ? e.getMessage() : e.toString());
            }
        }
        out.flush();
    }

    private static boolean isRefusal(Throwable e) {
        return e instanceof NativeException || e instanceof IllegalArgumentException;
    }

    /** One line per event, tab-separated, so the parent can tell it from what the runtime prints. */
    private static void report(PrintStream out, String event, int item, String detail) {
        StringBuilder line = new StringBuilder(TAG).append('\t').append(event).append('\t').append(item);
        if (detail != null) {
            line.append('\t').append(detail.replace('\n', ' ').replace('\t', ' '));
        }
        out.println(line);
        out.flush();
    }
}
