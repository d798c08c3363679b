package dev.tflitearena.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** The {@code tflite-arena} command line. */
@Command(name = "tflite-arena", mixinStandardHelpOptions = true, version = "tflite-arena 0.1.0",
        description = "TensorFlow Lite's tensor memory planner in Java, cross-checked against the native one.",
        subcommands = {DemoCommand.class, PlanCommand.class, CompareCommand.class, RunCommand.class,
                ComparePlannersCommand.class, ReportCommand.class, SnapshotCommand.class, InspectCommand.class,
                BenchCommand.class, MemoryCommand.class, ReleaseReportCommand.class, ReleasesCommand.class,
                RegressCommand.class, FuzzPlannerCommand.class, FuzzModelsCommand.class})
public final class Main {
    /** Exit status of a failure that is not a finding: bad input, a native error. */
    static final int EXIT_ERROR = 2;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = run(out, err, args);
        out.flush();
        err.flush();
        System.exit(status);
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
