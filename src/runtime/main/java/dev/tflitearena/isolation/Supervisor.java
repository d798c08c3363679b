package dev.tflitearena.isolation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a program's main class in a child JVM with this JVM's options and class path, and stands by: what
 * the child prints goes on to the caller, its exit status becomes the caller's, and when native code crashes
 * the child, the caller says so in one line instead of dying with it. TFLite's verifier checks a model's
 * structure, not its meaning, so any command that hands a user's model to native code can meet a kernel that
 * crashes on it; the command line runs its native commands this way.
 *
 * <p>The JVM prints its fatal error report to standard output: a line "#", then "# A fatal error has been
 * detected…" and more lines starting with '#'. From that opening on, the child's output is held back, so that
 * a crash replaces the report with its summary (the full report stays in a file); a lone "#" that opens no
 * report passes on with the line after it.
 *
 * <p>The JVM's report names the Java frames, not what they were working on: the child says that with
 * {@link #doing} before each native step that may crash (a model at a given input shape), and the crash
 * message repeats it.
 */
public final class Supervisor {
    /** Set in the child, so that it does the work instead of supervising another child. */
    public static final String CHILD_PROPERTY = "tflitearena.supervised";
    /** The file, set in the child, where {@link #doing} leaves what the child is doing. */
    private static final String DOING_PROPERTY = "tflitearena.doing";
    /** The caller's exit status when native code crashed the child. */
    public static final int EXIT_CRASHED = 3;
    private static final String REPORT_OPENING = "# A fatal error has been detected";

    private Supervisor() {
    }

    public static boolean isChild() {
        return Boolean.getBoolean(CHILD_PROPERTY);
    }

    /**
     * In a supervised child, tells the supervisor what native work comes next ("invoking at 1x4x4x4"), so
     * that if it crashes the process, the crash message says what crashed; elsewhere does nothing. The file
     * written survives the process.
     */
    public static void doing(String activity) {
        String file = System.getProperty(DOING_PROPERTY);
        if (file != null) {
            try {
                Files.writeString(Path.of(file), activity);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot note what this process is doing in " + file, e);
            }
        }
    }

    /**
     * Runs {@code mainClass} with {@code args} in a child JVM, with this JVM's options and {@code jvmOptions},
     * its standard input and error those of this process and its standard output relayed to {@code out};
     * returns its exit status, or {@link #EXIT_CRASHED} after telling {@code err} what crashed and where the
     * JVM's report is.
     */
    public static int run(Class<?> mainClass, List<String> jvmOptions, List<String> args, PrintStream out,
                          PrintStream err) {
        Path report = null;
        Path doing = null;
        try {
            report = Files.createTempFile("tflite-arena-crash-", ".log");
            Files.delete(report);
            doing = Files.createTempFile("tflite-arena-doing-", ".txt");
            // An interrupted JVM (Ctrl-C) skips the finally below but runs its shutdown hooks.
            doing.toFile().deleteOnExit();
            Process child = new ProcessBuilder(command(mainClass, jvmOptions, args, report, doing))
                    .redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            List<String> held = new ArrayList<>();
            CrashReport crash = new CrashReport();
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), Charset.defaultCharset()))) {
                boolean inReport = false;
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (inReport || (held.size() == 1 && line.startsWith(REPORT_OPENING))) {
                        inReport = true;
                        held.add(line);
                        if (CrashReport.isReportLine(line)) {
                            crash.read(line);
                        }
                        continue;
                    }
                    held.forEach(out::println);
                    held.clear();
                    if (line.equals("#")) {
                        held.add(line);
                    } else {
                        out.println(line);
                    }
                }
            }
            int status = child.waitFor();
            out.flush();
            if (!Files.exists(report)) {
                held.forEach(out::println);
                out.flush();
                return status;
            }
            String activity = Files.readString(doing).strip();
            err.println("tflite-arena: native code crashed the process that ran this command"
                    + (activity.isEmpty() ? "" : " while " + activity) + (crash.isEmpty() ? "" : ": " + crash)
                    + ". TFLite's verifier accepted the model, but a kernel"
                    + " (or the runtime) fails on it; the JVM's report is " + report + ".");
            err.flush();
            return EXIT_CRASHED;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the child JVM", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the child JVM ran", e);
        } finally {
            if (doing != null) {
                doing.toFile().delete();
            }
        }
    }

    private static List<String> command(Class<?> mainClass, List<String> jvmOptions, List<String> args,
                                        Path report, Path doing) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // A debugger's agent would try to listen on the parent's port.
            if (!option.startsWith("-agentlib:jdwp") && !option.startsWith("-XX:ErrorFile")) {
                command.add(option);
            }
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-D" + CHILD_PROPERTY + "=true", "-D" + DOING_PROPERTY + "=" + doing,
                "-XX:ErrorFile=" + report,
                "-XX:-CreateCoredumpOnCrash", "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(args);
        return command;
    }
}
