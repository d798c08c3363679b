package dev.tflitearena.isolation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Native work on untrusted models, in a child JVM where a crash, a hang or exhausted memory cannot take the
 * caller down. TFLite's flatbuffer verifier checks the file's structure, not its meaning: a model that
 * verifies can still crash a kernel in prepare or invoke. So a model from an untrusted source is checked
 * before this JVM loads it, and only an {@link Outcome#OK} one is loaded, from the very bytes checked: a
 * file that changes between the check and the load was not checked ({@code TfLiteModel.loadUntrusted} does
 * both). Pure-Java parsing ({@code TfliteFile.read}) needs no isolation: it refuses what it cannot read.
 *
 * <p>The child ({@link NativeProbe}) takes a batch of files, so the JVM starts once for many; when it dies
 * on one, the rest go to a new child. The child's heap is capped by {@code -Xmx} and its whole address
 * space by {@code ulimit -v}, so native allocations are capped too. Other native work runs the same way:
 * {@link #runAll} takes any batch and any child main class that reports through {@link ChildProbe}.
 */
public final class IsolatedRun {
    public enum Outcome {
        /** every native step succeeded */
        OK,
        /** refused with an error message: the verifier, a kernel's prepare, the plan reader */
        REFUSED,
        /** an exception no refusal explains: a bug on the Java side */
        FAILED,
        /** the child JVM died of a signal in native code */
        CRASHED,
        /** the child outlived the timeout and was killed */
        TIMED_OUT,
        /** the child ran out of Java heap or of its native allowance */
        OUT_OF_MEMORY
    }

    /**
     * @param item   the file checked, or the item of another batch
     * @param stage  the last step begun: for a model check load, compare or run
     * @param signal the signal a crashed child died of, such as SIGFPE; null unless {@link Outcome#CRASHED}
     */
    public record Result(String item, Outcome outcome, String stage, String detail, String signal) {
    }

    /** @param addressSpaceMegabytes the child's whole virtual memory, JVM included */
    public record Limits(Duration timeout, int heapMegabytes, int addressSpaceMegabytes) {
        public static final Limits DEFAULT = new Limits(Duration.ofSeconds(60), 512, 4096);

        /** The default memory limits with this timeout. */
        public static Limits withTimeout(Duration timeout) {
            return new Limits(timeout, DEFAULT.heapMegabytes(), DEFAULT.addressSpaceMegabytes());
        }
    }

    private static final Duration STARTUP = Duration.ofSeconds(60);
    /** The status {@code -XX:+ExitOnOutOfMemoryError} exits with. */
    private static final int EXIT_OUT_OF_MEMORY = 3;
    private static final String END = "\u0000end";

    private IsolatedRun() {
    }

    /** Every native step on the file, in a child JVM under the default limits. */
    public static Result check(Path file) {
        return checkAll(List.of(file), Limits.DEFAULT).get(0);
    }

    /**
     * Every native step on a model held in memory, in a child JVM under the default limits: the bytes go to
     * a file of a directory only this user can read, so that what the child checks is what the caller holds.
     * {@code name} stands for the model in the result.
     */
    public static Result check(byte[] model, String name) {
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("isolated-check");
            Result result = check(Files.write(scratch.resolve("model.tflite"), model));
            return new Result(name, result.outcome(), result.stage(), result.detail(), result.signal());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a private copy of " + name + " to check it", e);
        } finally {
            delete(scratch);
        }
    }

    /** The results of the files in their order, a new child taking over after one dies. */
    public static List<Result> checkAll(List<Path> files, Limits limits) {
        return runAll(NativeProbe.class, List.of(), files.stream().map(f -> f.toAbsolutePath().toString()).toList(),
                limits);
    }

    /**
     * Runs {@code probe}'s main in child JVMs on {@code arguments} followed by the items, one argument each;
     * the main reports through {@link ChildProbe}. Returns the results of the items in their order, a new
     * child taking over after one dies.
     */
    public static List<Result> runAll(Class<?> probe, List<String> arguments, List<String> items, Limits limits) {
        List<Result> results = new ArrayList<>();
        while (results.size() < items.size()) {
            List<String> rest = items.subList(results.size(), items.size());
            results.addAll(child(probe, arguments, rest, limits));
        }
        return results;
    }

    /** Runs one child over the items; returns the results up to and including the one it died on. */
    private static List<Result> child(Class<?> probe, List<String> arguments, List<String> items, Limits limits) {
        Path scratch = null;
        Process process = null;
        try {
            scratch = Files.createTempDirectory("isolated-run");
            Path stderr = scratch.resolve("stderr");
            process = new ProcessBuilder(command(probe, arguments, items, limits, scratch))
                    .redirectError(stderr.toFile()).start();
            process.getOutputStream().close();
            BlockingQueue<String> lines = readLines(process);
            List<Result> results = new ArrayList<>();
            Child state = new Child();
            long deadline = System.nanoTime() + STARTUP.toNanos();
            while (true) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    process.destroyForcibly().waitFor();
                    if (state.current < 0) {
                        throw new IllegalStateException("the child JVM did not start within " + STARTUP);
                    }
                    results.add(new Result(items.get(state.current), Outcome.TIMED_OUT, state.stage,
                            "killed after " + limits.timeout().toSeconds() + " s", null));
                    return results;
                }
                if (line.equals(END)) {
                    int status = process.waitFor();
                    if (state.current < 0 || state.finished) {
                        if (results.isEmpty()) {
                            throw new IllegalStateException("the child JVM exited with status " + status
                                    + " before its first item: " + tail(stderr, 0));
                        }
                        return results;
                    }
                    results.add(death(items.get(state.current), state, status, stderr));
                    return results;
                }
                Optional<Result> result = state.read(line, items);
                result.ifPresent(results::add);
                if (result.isPresent()) {
                    // What the child prints to standard error from here on belongs to the next item.
                    state.stderrMark = Files.size(stderr);
                }
                if (state.started) {
                    deadline = System.nanoTime() + limits.timeout().toNanos();
                    state.started = false;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (process != null) {
                process.destroyForcibly();
            }
            delete(scratch);
        }
    }

    /** What the child's lines said so far: the item it is on, the stage, whether it finished that item. */
    private static final class Child {
        int current = -1;
        String stage = "start";
        boolean finished;
        boolean started;
        long stderrMark;
        /** The last line the JVM itself printed, such as why it terminated. */
        String lastOther = "";
        final CrashReport crash = new CrashReport();

        Optional<Result> read(String line, List<String> items) {
            if (CrashReport.isReportLine(line)) {
                crash.read(line);
                return Optional.empty();
            }
            String[] fields = line.split("\t", 4);
            if (fields.length < 3 || !fields[0].equals(ChildProbe.TAG)) {
                lastOther = line;
                return Optional.empty();
            }
            int item = Integer.parseInt(fields[2]);
            String detail = fields.length > 3 ? fields[3] : "";
            switch (fields[1]) {
                case "begin" -> {
                    current = item;
                    stage = "start";
                    finished = false;
                    started = true;
                }
                case "stage" -> stage = detail;
                default -> {
                    finished = true;
                    Outcome outcome = Outcome.valueOf(fields[1].toUpperCase());
                    return Optional.of(new Result(items.get(item), outcome, stage, detail, null));
                }
            }
            return Optional.empty();
        }
    }

    private static Result death(String item, Child state, int status, Path stderr) throws IOException {
        String errors = (state.lastOther + " " + tail(stderr, state.stderrMark)).strip();
        if (status == EXIT_OUT_OF_MEMORY || errors.contains("OutOfMemoryError") || errors.contains("bad_alloc")) {
            return new Result(item, Outcome.OUT_OF_MEMORY, state.stage, errors, null);
        }
        if (!state.crash.isEmpty()) {
            return new Result(item, Outcome.CRASHED, state.stage, state.crash + " (exit status " + status + ")",
                    state.crash.signal());
        }
        String signal = status > 128 ? "signal " + (status - 128) : null;
        return new Result(item, Outcome.CRASHED, state.stage, "exit status " + status
                + (signal == null ? "" : " (" + signal + ")") + ": " + errors, signal);
    }

    private static List<String> command(Class<?> probe, List<String> arguments, List<String> items, Limits limits,
                                        Path scratch) {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c",
                "ulimit -v " + limits.addressSpaceMegabytes() * 1024L + " && exec \"$0\" \"$@\"",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + limits.heapMegabytes() + "m",
                // Reservations the JVM makes by default would take most of the address space allowed.
                "-XX:CompressedClassSpaceSize=64m", "-XX:ReservedCodeCacheSize=64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError", "-XX:-CreateCoredumpOnCrash",
                "-XX:ErrorFile=" + scratch.resolve("hs_err.log"),
                "-cp", System.getProperty("java.class.path"), probe.getName()));
        command.addAll(arguments);
        command.addAll(items);
        return command;
    }

    /** The child's standard output, line by line, then {@link #END}; read on a thread so the parent can time out. */
    private static BlockingQueue<String> readLines(Process process) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The child was killed: its output ends here.
            }
            lines.add(END);
        }, "isolated-run-stdout");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** The end of what the file holds from {@code from} on, on one line. */
    private static String tail(Path file, long from) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        byte[] bytes = Files.readAllBytes(file);
        int start = (int) Math.max(Math.min(from, bytes.length), bytes.length - 400L);
        return new String(bytes, start, bytes.length - start, StandardCharsets.ISO_8859_1).strip().replace('\n', ' ');
    }

    private static void delete(Path directory) {
        if (directory == null) {
            return;
        }
        try (var entries = Files.list(directory)) {
            for (Path entry : entries.toList()) {
                Files.deleteIfExists(entry);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // A scratch directory left in the temp dir is harmless.
        }
    }
}
