package dev.tflitearena.cli.output;

import dev.tflitearena.progress.Progress;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A command's progress on standard error, never on standard output, which holds its result. On a terminal it
 * is one line drawn over and over (the time since the start, a bar, the count, what is under way), redrawn
 * every second so that the clock moves through a long step, and erased when the command is done; elsewhere,
 * as in a log, a line per step, and while only a count moves, a line at most every {@link #LINE_EVERY}.
 */
public final class ProgressDisplay implements Progress, AutoCloseable {
    public enum Mode {
        /** nothing shown: {@code --quiet} */
        OFF,
        /** a line per step */
        LINES,
        /** one line redrawn in place, on a terminal */
        BAR
    }

    static final Duration LINE_EVERY = Duration.ofSeconds(10);
    private static final long REDRAW_NANOS = Duration.ofMillis(100).toNanos();
    private static final int BAR_WIDTH = 20;
    private static final int DEFAULT_COLUMNS = 80;
    /** ANSI "erase to the end of the line": what a longer line drawn before left. */
    private static final String ERASE_TO_END = "\u001b[K";

    private final PrintWriter err;
    private final String command;
    private final Mode mode;
    private final int columns;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService clock;
    private long done;
    private long total = -1;
    private String label;
    /** When the line was last printed, or drawn. */
    private long lastShown;
    private boolean drawn;
    private boolean closed;

    public ProgressDisplay(PrintWriter err, String command, Mode mode) {
        this.err = err;
        this.command = command;
        this.mode = mode;
        this.columns = mode == Mode.BAR ? columns() : DEFAULT_COLUMNS;
        if (mode == Mode.BAR) {
            clock = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "progress-clock");
                thread.setDaemon(true);
                return thread;
            });
            clock.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
        } else {
            clock = null;
        }
    }

    /**
     * Whether this process's standard error is a terminal. Not {@link System#console()}, which asks the same of
     * standard input and output: the bar belongs on a terminal even when the result goes to a file, and a command's
     * child JVM (see {@code Supervisor}) inherits the terminal as its standard error while its output is a pipe.
     */
    public static boolean stderrIsTerminal() {
        if ("dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Override
    public synchronized void advance(long done, long total, String label) {
        update(done, total, label);
    }

    @Override
    public synchronized void step(String label) {
        update(0, -1, label);
    }

    private void update(long done, long total, String label) {
        boolean newLabel = !label.equals(this.label);
        this.done = done;
        this.total = total;
        this.label = label;
        long now = System.nanoTime();
        if (mode == Mode.LINES && (newLabel || now - lastShown >= LINE_EVERY.toNanos())) {
            err.println(line());
            err.flush();
            lastShown = now;
        } else if (mode == Mode.BAR && (newLabel || now - lastShown >= REDRAW_NANOS)) {
            draw(now);
        }
    }

    private synchronized void redraw() {
        if (label != null) {
            draw(System.nanoTime());
        }
    }

    private void draw(long now) {
        if (closed) {
            return;
        }
        String line = line();
        err.print("\r" + (line.length() < columns ? line : line.substring(0, columns - 1)) + ERASE_TO_END);
        err.flush();
        drawn = true;
        lastShown = now;
    }

    /** The command, the time since the start, on a terminal the bar, then the count and the label. */
    private String line() {
        StringBuilder line = new StringBuilder(command).append(' ').append(elapsed()).append(' ');
        if (total > 0) {
            if (mode == Mode.BAR) {
                int filled = (int) (BAR_WIDTH * Math.min(done, total) / total);
                line.append('[').append("#".repeat(filled)).append("-".repeat(BAR_WIDTH - filled)).append("] ");
            }
            line.append(done).append('/').append(total).append(' ');
        }
        return line.append(label).toString();
    }

    private String elapsed() {
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        return seconds < 3600 ? String.format("%d:%02d", seconds / 60, seconds % 60)
                : String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    /** The terminal's width: as the shell exports it, else as {@code stty} reads it, else the common 80 columns. */
    private static int columns() {
        String columns = System.getenv("COLUMNS");
        try {
            if (columns == null) {
                Process stty = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                // "ROWS COLUMNS"
                String size = new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
                columns = stty.waitFor() == 0 ? size.substring(size.indexOf(' ') + 1) : "";
            }
            int width = Integer.parseInt(columns.strip());
            return width > 0 ? width : DEFAULT_COLUMNS;
        } catch (IOException | NumberFormatException e) {
            return DEFAULT_COLUMNS;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DEFAULT_COLUMNS;
        }
    }

    /** Stops the clock and erases the bar, so that what the command prints next starts a clean line. */
    @Override
    public void close() {
        if (clock != null) {
            clock.shutdownNow();
        }
        synchronized (this) {
            closed = true;
            if (drawn) {
                err.print("\r" + ERASE_TO_END);
                err.flush();
            }
        }
    }
}
