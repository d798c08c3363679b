package dev.tflitearena.cli;

import dev.tflitearena.isolation.Supervisor;
import dev.tflitearena.memory.JvmMalloc;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code tflite-arena} command line. */
@Command(name = "tflite-arena", mixinStandardHelpOptions = true, version = "tflite-arena 0.1.0",
        description = "TensorFlow Lite's tensor memory planner in Java, cross-checked against the native one.",
        subcommands = {DemoCommand.class, PlanCommand.class, CompareCommand.class, RunCommand.class,
                ComparePlannersCommand.class, ReportCommand.class, SnapshotCommand.class, InspectCommand.class,
                BenchLauncher.class, MemoryCommand.class, ReleaseReportCommand.class, ReleasesCommand.class,
                RegressCommand.class, FuzzPlannerCommand.class, FuzzModelsCommand.class})
public final class Main {
    /** Exit status of a failure that is not a finding: bad input, a native error. */
    static final int EXIT_ERROR = 2;

    /**
     * Commands that run in this JVM: they hand no model to native code (inspect, regress), or isolate what
     * they do themselves (fuzz-models, releases, bench). Every other command runs in a child JVM that a crash in
     * native code cannot take this one down with ({@link Supervisor}).
     */
    private static final Set<String> IN_PROCESS = Set.of("inspect", "regress", "fuzz-models", "releases", "bench");
    /** JVM options of a command's child: {@code memory} takes the JVM's own mallocs out of the native heap. */
    private static final Map<String, List<String>> CHILD_OPTIONS = Map.of("memory", List.of(JvmMalloc.OPTION));
    /** Set (to anything) to run every command in this JVM: where no child JVM can start, say under qemu-user. */
    static final String IN_PROCESS_VARIABLE = "TFLITE_ARENA_IN_PROCESS";

    public static void main(String[] args) {
        int status;
        boolean inProcess = Supervisor.isChild() || System.getenv(IN_PROCESS_VARIABLE) != null;
        if (!inProcess && supervised(args)) {
            List<String> options = CHILD_OPTIONS.getOrDefault(command(args).orElseThrow(), List.of());
            status = Supervisor.run(Main.class, options, List.of(args), System.out, System.err);
        } else {
            PrintWriter out = new PrintWriter(System.out, true);
            PrintWriter err = new PrintWriter(System.err, true);
            status = run(out, err, args);
            out.flush();
            err.flush();
        }
        System.exit(status);
    }

    /** Whether the command line names a command that runs in a child JVM. */
    static boolean supervised(String... args) {
        return command(args).filter(command -> !IN_PROCESS.contains(command)).isPresent();
    }

    private static Optional<String> command(String... args) {
        return Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst();
    }

    static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Main()).setOut(out).setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (System.getenv("TFLITE_ARENA_TRACE") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().println("tflite-arena " + commandLine.getCommandName() + ": " + describe(e));
            commandLine.getErr().flush();
            return EXIT_ERROR;
        });
        return cli.execute(args);
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return message == null ? e.toString() : message;
    }
}
