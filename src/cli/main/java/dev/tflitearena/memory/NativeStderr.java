package dev.tflitearena.memory;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What native code prints to the process's standard error while an action runs, or while a command runs.
 * TFLite reports why an op refused to prepare only there, and its ErrorReporter cannot be replaced from Java
 * (the presets do not make it overridable). POSIX with glibc; file descriptor 2 is the whole process's, so
 * anything another thread writes to it meanwhile is captured too: Java's System.err as well, but for a
 * {@link Capture}, which points System.err past itself.
 */
public final class NativeStderr {
    private static final C LIBC = Native.load("c", C.class);
    private static final int STDERR = 2;
    private static final int O_RDWR_CREAT_TRUNC = 02 | 0100 | 01000;
    private static final int READ_CHUNK = 1 << 16;

    private interface C extends Library {
        int open(String path, int flags, int mode);

        int dup(int fd);

        int dup2(int from, int to);

        int close(int fd);

        int fflush(Pointer stream);

        long write(int fd, byte[] buffer, long count);

        long pread(int fd, byte[] buffer, long count, long offset);
    }

    /**
     * Standard error pointed at a file: {@code saved} is where it went before, {@code reader} reads the file
     * back, whether its name is still there or not.
     */
    private record Redirect(int saved, int reader) {
    }

    /**
     * What the action failed with; its message is what was printed meanwhile, on one line and without
     * TFLite's "ERROR: " prefixes, as the failure's own message says no more than that something failed.
     */
    public static final class Failure extends RuntimeException {
        Failure(RuntimeException cause, String printed) {
            super(printed.isBlank() ? cause.getMessage()
                    : String.join(" ", printed.replace("ERROR: ", "").strip().split("\\s*\n\\s*")), cause);
        }
    }

    /**
     * Standard error going to a file from its start to its close, Java's System.err excepted: that goes on
     * to where standard error went before, so the file holds what native code printed (TFLite's "INFO:" and
     * "ERROR:" lines, the JVM's own warnings). Captures nest: an inner one takes what is printed meanwhile.
     */
    public static final class Capture implements AutoCloseable {
        private final Path file;
        private final Redirect redirect;
        private final PrintStream javaErr;

        private Capture(Path file, boolean temporary) {
            this.file = file;
            javaErr = System.err;
            redirect = redirect(file, temporary);
            System.setErr(new PrintStream(new DescriptorStream(redirect.saved()), true, Charset.defaultCharset()));
        }

        /** What native code printed so far. */
        public String printed() {
            return readBack(redirect.reader());
        }

        @Override
        public void close() {
            System.err.flush();
            System.setErr(javaErr);
            restore(redirect);
            file.toFile().delete();
        }
    }

    /** Writes to a file descriptor that no FileDescriptor of Java's stands for: the one standard error was saved to. */
    private static final class DescriptorStream extends OutputStream {
        private final int fd;

        DescriptorStream(int fd) {
            this.fd = fd;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[]{(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            byte[] rest = offset == 0 && length == bytes.length ? bytes
                    : Arrays.copyOfRange(bytes, offset, offset + length);
            while (rest.length > 0) {
                long written = LIBC.write(fd, rest, rest.length);
                if (written < 0) {
                    throw new IOException("cannot write to file descriptor " + fd);
                }
                rest = Arrays.copyOfRange(rest, (int) written, rest.length);
            }
        }
    }

    private NativeStderr() {
    }

    /**
     * Captures standard error into {@code file} until the capture is closed, which deletes the file; if the
     * process dies first, the file stays for whoever named it.
     */
    public static synchronized Capture start(Path file) {
        return new Capture(file, false);
    }

    /** Captures standard error into a temporary file whose name is gone at once: a crash leaves nothing behind. */
    public static synchronized Capture start() {
        return new Capture(temporaryFile(), true);
    }

    /**
     * Runs the action with standard error going to a file and returns what was printed; a failure is
     * rethrown as a {@link Failure} whose message is what was printed, or its own where nothing was.
     */
    public static synchronized String capture(Runnable action) {
        Redirect redirect = redirect(temporaryFile(), true);
        RuntimeException failure = null;
        String printed;
        try {
            action.run();
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            printed = readBack(redirect.reader());
            restore(redirect);
        }
        if (failure != null) {
            throw new Failure(failure, printed);
        }
        return printed;
    }

    /** Points standard error at the file; with {@code unlink} its name goes at once, the descriptors keep it. */
    private static Redirect redirect(Path file, boolean unlink) {
        int target = LIBC.open(file.toString(), O_RDWR_CREAT_TRUNC, 0600);
        int reader = target < 0 ? -1 : LIBC.dup(target);
        int saved = LIBC.dup(STDERR);
        if (target < 0 || reader < 0 || saved < 0) {
            LIBC.close(target);
            LIBC.close(reader);
            LIBC.close(saved);
            throw new IllegalStateException("cannot redirect standard error to " + file);
        }
        if (unlink) {
            file.toFile().delete();
        }
        System.err.flush();
        LIBC.fflush(null);
        LIBC.dup2(target, STDERR);
        LIBC.close(target);
        return new Redirect(saved, reader);
    }

    /** Everything written to the file so far, whatever the descriptors' offsets. */
    private static String readBack(int reader) {
        LIBC.fflush(null);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] chunk = new byte[READ_CHUNK];
        for (long offset = 0; ; ) {
            long read = LIBC.pread(reader, chunk, chunk.length, offset);
            if (read <= 0) {
                break;
            }
            bytes.write(chunk, 0, (int) read);
            offset += read;
        }
        return bytes.toString(StandardCharsets.UTF_8).strip();
    }

    private static void restore(Redirect redirect) {
        System.err.flush();
        LIBC.fflush(null);
        LIBC.dup2(redirect.saved(), STDERR);
        LIBC.close(redirect.saved());
        LIBC.close(redirect.reader());
    }

    private static Path temporaryFile() {
        try {
            return Files.createTempFile("tflite-arena-stderr", ".txt");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
