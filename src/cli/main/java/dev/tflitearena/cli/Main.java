package dev.tflitearena.cli;

import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.isolation.Supervisor;
import dev.tflitearena.memory.JvmMalloc;
import dev.tflitearena.memory.NativeStderr;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** The {@code tflite-arena} command line. */
@Command(name = "tflite-arena", mixinStandardHelpOptions = true, version = "tflite-arena 0.1.0",
        description = "TensorFlow Lite's tensor memory planner in Java, cross-checked against the native one.",
        subcommands = {DemoCommand.class, PlanCommand.class, FitCommand.class, ExportBuffersCommand.class,
                CompareCommand.class, RunCommand.class, ComparePlannersCommand.class, ReportCommand.class,
                SnapshotCommand.class, InspectCommand.class, BenchLauncher.class, MemoryCommand.class, ReleaseReportCommand.class, ReleasesCommand.class,
                ReleaseRoundCommand.class, SlowedModelsCommand.class, RegressCommand.class, FuzzPlannerCommand.class,
                FuzzModelsCommand.class, FuzzBakedCommand.class, PlanGroupCommand.class, RunGroupCommand.class, FuzzSolverCommand.class,
                BakeCommand.class, CheckCommand.class})
public final class Main implements ProgressOptions.Terminal {
    /** Exit status of a failure that is not a finding: bad input, a native error. */
    static final int EXIT_ERROR = 2;

    /**
     * Commands that run in this JVM: they hand no model to native code (inspect, regress), or isolate what
     * they do themselves (fuzz-models, fuzz-baked, releases, bench). Every other command runs in a child JVM that
     * a crash in native code cannot take this one down with ({@link Supervisor}).
     */
    private static final Set<String> IN_PROCESS = Set.of("inspect", "regress", "fuzz-models", "fuzz-baked", "releases",
            "bench", "fuzz-solver");
    /** JVM options of a command's child: {@code memory} takes the JVM's own mallocs out of the native heap. */
    private static final Map<String, List<String>> CHILD_OPTIONS = Map.of("memory", List.of(JvmMalloc.OPTION));
    /** Set (to anything) to run every command in this JVM: where no child JVM can start, say under qemu-user. */
    static final String IN_PROCESS_VARIABLE = "TFLITE_ARENA_IN_PROCESS";
    static final String VERBOSE = "--verbose";
    /** The file a command's child JVM captures native code's standard error in, so that a crash leaves it. */
    private static final String NATIVE_STDERR_PROPERTY = "tflitearena.nativeStderr";
    /** The last lines of what native code printed that an error shows; --verbose shows every line. */
    private static final int NATIVE_LINES_SHOWN = 20;

    /** Read from the arguments before they are parsed ({@link #main}); declared so that every command takes it. */
    @Option(names = VERBOSE, scope = ScopeType.INHERIT, description = "Let native code (TFLite) print to standard "
            + "error as it runs: its INFO and ERROR lines, which are otherwise held back and shown only with an "
            + "error.")
    boolean verbose;

    /** Declared here so that every command takes it; the commands that show progress read it (ProgressOptions). */
    @Option(names = ProgressOptions.QUIET, scope = ScopeType.INHERIT, description = "Show no progress on standard "
            + "error (the commands that run long show it).")
    boolean quiet;

    /** Whether the commands' standard error is a terminal, where their progress is a bar. */
    private final boolean stderrIsTerminal;

    private Main(boolean stderrIsTerminal) {
        this.stderrIsTerminal = stderrIsTerminal;
    }

    @Override
    public boolean stderrIsTerminal() {
        return stderrIsTerminal;
    }

    public static void main(String[] args) {
        int status;
        // Read before native code's standard error is captured, which makes file descriptor 2 a file.
        boolean terminal = ProgressDisplay.stderrIsTerminal();
        boolean inProcess = Supervisor.isChild() || System.getenv(IN_PROCESS_VARIABLE) != null;
        if (!inProcess && supervised(args)) {
            status = supervise(args);
        } else if (supervised(args) && !Arrays.asList(args).contains(VERBOSE)) {
            // The command runs native code here.
            String file = System.getProperty(NATIVE_STDERR_PROPERTY);
            try (NativeStderr.Capture capture = file == null ? NativeStderr.start() : NativeStderr.start(Path.of(file))) {
                status = runHere(capture::printed, terminal, args);
            }
        } else {
            status = runHere(() -> "", terminal, args);
        }
        System.exit(status);
    }

    /**
     * Runs the command in a child JVM, which captures what native code prints; if native code crashes the
     * child, the lines it printed are shown after the crash.
     */
    private static int supervise(String[] args) {
        Path nativeStderr = temporaryFile();
        try {
            List<String> options = new ArrayList<>(CHILD_OPTIONS.getOrDefault(command(args).orElseThrow(), List.of()));
            options.add("-D" + NATIVE_STDERR_PROPERTY + "=" + nativeStderr);
            int status = Supervisor.run(Main.class, options, List.of(args), System.out, System.err);
            if (status == Supervisor.EXIT_CRASHED && Files.exists(nativeStderr)) {
                PrintWriter err = new PrintWriter(System.err, true);
                printNativeStderr(err, Files.readString(nativeStderr, StandardCharsets.UTF_8).strip());
                err.flush();
            }
            return status;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            nativeStderr.toFile().delete();
        }
    }

    private static int runHere(Supplier<String> nativeStderr, boolean stderrIsTerminal, String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = run(out, err, nativeStderr, stderrIsTerminal, args);
        out.flush();
        err.flush();
        return status;
    }

    /** Whether the command line names a command that runs in a child JVM. */
    static boolean supervised(String... args) {
        return command(args).filter(command -> !IN_PROCESS.contains(command)).isPresent();
    }

    private static Optional<String> command(String... args) {
        return Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst();
    }

    /** Every command and option as the command line parses them, on writers that are no terminal. */
    static CommandLine commandLine() {
        return new CommandLine(new Main(false));
    }

    /** Runs the command line, printing to writers that are no terminal. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(out, err, () -> "", false, args);
    }

    /** @param nativeStderr what native code has printed so far, shown with an error */
    private static int run(PrintWriter out, PrintWriter err, Supplier<String> nativeStderr, boolean stderrIsTerminal,
                           String... args) {
        CommandLine cli = new CommandLine(new Main(stderrIsTerminal)).setOut(out).setErr(err);
        cli.setParameterExceptionHandler(Main::refuse);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (System.getenv("TFLITE_ARENA_TRACE") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().println("tflite-arena " + commandLine.getCommandName() + ": " + describe(e));
            printNativeStderr(commandLine.getErr(), nativeStderr.get());
            commandLine.getErr().flush();
            return EXIT_ERROR;
        });
        return cli.execute(args);
    }

    /** A command line picocli cannot parse: one line that says what is wrong and where the help is, not the usage. */
    private static int refuse(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        List<String> suggestions = e instanceof CommandLine.UnmatchedArgumentException u ? u.getSuggestions()
                : List.of();
        String guess = suggestions.isEmpty() ? "" : "; did you mean " + String.join(" or ", suggestions.stream()
                .map(c -> "'" + c + "'").toList()) + "?";
        command.getErr().println(name + ": " + e.getMessage() + guess + " (see '" + name + " --help')");
        command.getErr().flush();
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    private static String describe(Exception e) {
        // java.nio names only the file; the exception's class says what was wrong with it.
        Throwable cause = e instanceof UncheckedIOException u && u.getMessage().equals(u.getCause().toString())
                ? u.getCause() : e;
        if (cause instanceof FileSystemException f && f.getReason() == null) {
            return f.getMessage() + ": " + WritablePath.reason(f);
        }
        String message = e.getMessage();
        return message == null ? e.toString() : message;
    }

    /** The last lines of what native code printed, if anything, under a line that says what they are. */
    private static void printNativeStderr(PrintWriter err, String printed) {
        if (printed.isEmpty()) {
            return;
        }
        List<String> lines = printed.lines().toList();
        err.println("native code (TFLite) printed" + (lines.size() > NATIVE_LINES_SHOWN ? ", last "
                + NATIVE_LINES_SHOWN + " of " + lines.size() + " lines (" + VERBOSE + " shows them as they come)" : "")
                + ":");
        lines.subList(Math.max(0, lines.size() - NATIVE_LINES_SHOWN), lines.size()).forEach(l -> err.println("  " + l));
    }

    /** Deleted when the command ends, and when the JVM is interrupted before (Ctrl-C), which skips finally. */
    private static Path temporaryFile() {
        try {
            Path file = Files.createTempFile("tflite-arena-native-stderr", ".txt");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
