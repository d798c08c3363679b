package dev.tflitearena.cli.output;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The files and directories commands write, checked before the work so that a path that cannot be written
 * fails at once, and saying why when a write fails: the exceptions of java.nio name only the path.
 */
public final class WritablePath {
    private WritablePath() {
    }

    /** A file the command will write: its directory must exist and let it be written. */
    public static void checkFile(Path file) {
        if (Files.isDirectory(file)) {
            throw refused(file, "it is a directory");
        }
        Path directory = directoryOf(file);
        if (!Files.exists(directory)) {
            throw refused(file, "no such directory " + directory);
        }
        if (!Files.isDirectory(directory)) {
            throw refused(file, directory + " is not a directory");
        }
        checkAccess(file, Files.exists(file) ? file : directory);
    }

    /** A directory the command will create if missing, with its parents, and write in. */
    public static void checkDirectory(Path directory) {
        Path existing = directory.toAbsolutePath();
        while (!Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (!Files.isDirectory(existing)) {
            throw refused(directory, existing.equals(directory.toAbsolutePath()) ? "it is not a directory"
                    : existing + " is not a directory");
        }
        checkAccess(directory, existing);
    }

    public static void write(Path file, String text) {
        write(file, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw failure(file, e);
        }
    }

    /** "cannot write FILE: why", for a write that failed. */
    public static UncheckedIOException failure(Path file, IOException e) {
        String why = reason(e);
        if (e instanceof NoSuchFileException && !Files.isDirectory(directoryOf(file))) {
            why = "no such directory " + directoryOf(file);
        }
        return new UncheckedIOException("cannot write " + file + ": " + why, e);
    }

    /**
     * Why a file operation failed, in words: "permission denied" where java.nio gives only the path, else
     * the system's reason.
     */
    public static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        String reason = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
        return reason == null ? e.getClass().getSimpleName()
                : Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
    }

    /** Whether the system lets this user write {@code where}: the file itself, or the directory to hold it. */
    private static void checkAccess(Path target, Path where) {
        try {
            where.getFileSystem().provider().checkAccess(where, AccessMode.WRITE);
        } catch (IOException e) {
            throw refused(target, reason(e) + (where.equals(target) ? "" : " on " + where));
        }
    }

    private static IllegalArgumentException refused(Path file, String why) {
        return new IllegalArgumentException("cannot write " + file + ": " + why);
    }

    /** The directory the file goes in, as the user wrote it where they gave one. */
    private static Path directoryOf(Path file) {
        Path parent = file.getParent();
        return parent != null ? parent : file.toAbsolutePath().getParent();
    }
}
