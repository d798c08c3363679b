package dev.tflitearena.bench;

import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.plan.catalog.Planners;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The benchmarks' command line, the main class of tflite-arena-bench.jar: {@code tflite-arena bench} runs that
 * jar with its own arguments, so that JMH and DJL stay out of the command line's jar.
 */
@Command(name = "tflite-arena bench", mixinStandardHelpOptions = true,
        description = "Runs the JMH benchmarks, Java against native on the same models: planning alone (TFLite's "
                + "ArenaPlanner against every Java planner but 'optimal'), setting an interpreter up end to end "
                + "and phase by phase, and invoke latency of a native-planned against a Java-planned interpreter, XNNPACK off and on. "
                + "Writes JMH's JSON (DIR/results.json), JMH's report (DIR/jmh.log) and a table per model of medians "
                + "and ratios Java/native with 95%% intervals (DIR/summary.md, DIR/summary.json), and prints the "
                + "table; standard error shows which benchmark runs. A full run on the 3 default models takes "
                + "about 17 minutes on 2 cores: 54 benchmark and parameter sets (18 per model), each in 2 forks of "
                + "(3 warm-up + 5 measured) 1 s iterations, make 14.4 minutes of iterations, and each of the 108 "
                + "forks starts a JVM and prepares its model. With --throughput, the throughput benchmark instead.")
public final class BenchCommand implements Callable<Integer> {
    /** Exit status of a failure that is not a finding, as on the command line: bad input, a native error. */
    static final int EXIT_ERROR = 2;

    @Option(names = "--quick", description = "Run every benchmark once, briefly, to prove that it runs: the figures "
            + "mean nothing.")
    boolean quick;

    @Option(names = "--throughput", description = "Run the throughput benchmark instead of the suite: inferences "
            + "per second of a SessionPool with 1, 2 and 4 callers (a session each), of one raw interpreter and of "
            + "DJL's TFLite engine, on the same inputs, XNNPACK off and on for ours. DJL is timed only once its "
            + "outputs agree with ours on every model; otherwise the table gives its error. --include filters "
            + "within it.")
    boolean throughput;

    @Option(names = "--out", defaultValue = "target/bench", paramLabel = "DIR",
            description = "Where the results go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--models", split = ",", paramLabel = "FILE",
            description = "Model file names in --models-dir (default: ${DEFAULT-VALUE}).")
    List<String> models = BenchSuite.DEFAULT_MODELS;

    @Option(names = "--models-dir", defaultValue = "tests/models", paramLabel = "DIR",
            description = "Where the models are (default: ${DEFAULT-VALUE}, filled by tests/fetch-models.sh).")
    Path modelsDirectory;

    @Option(names = "--planners", split = ",", paramLabel = "NAME",
            description = "Java planners to measure in every benchmark (default: every planner but 'optimal' "
                    + "for planning, 'tflite' for set-up and invoke). 'optimal' stops at 100 ms.")
    List<String> planners = List.of();

    @Option(names = "--include", defaultValue = BenchSuite.ALL_BENCHMARKS, paramLabel = "REGEX",
            description = "JMH's benchmark filter (default: every benchmark, ${DEFAULT-VALUE}).")
    String include;

    @Option(names = "--forks", defaultValue = "-1", paramLabel = "N",
            description = "JMH forks (default: 2, or 1 with --quick); 0 runs in this JVM, as under qemu-user "
                    + "without binfmt_misc.")
    int forks;

    /** Read by {@link ProgressOptions}, which finds it by name, as on every command of the command line. */
    @Option(names = ProgressOptions.QUIET, description = "Show no progress on standard error.")
    boolean quiet;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = run(out, err, args);
        out.flush();
        err.flush();
        System.exit(status);
    }

    static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new BenchCommand()).setOut(out).setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (System.getenv("TFLITE_ARENA_TRACE") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().println(commandLine.getCommandName() + ": "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()));
            commandLine.getErr().flush();
            return EXIT_ERROR;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        WritablePath.checkDirectory(out);
        for (String model : models) {
            if (!Files.isRegularFile(modelsDirectory.resolve(model))) {
                throw new IllegalArgumentException(modelsDirectory.resolve(model) + ": no such model file"
                        + " (tests/fetch-models.sh fetches the real ones)");
            }
        }
        planners.forEach(Planners::byName);
        Files.createDirectories(out);
        Path results = out.resolve("results.json");
        List<DjlCheck> djl;
        try (ProgressDisplay display = progress.open()) {
            djl = new BenchSuite(quick, throughput, models, modelsDirectory, planners, include, forks, results,
                    out.resolve("jmh.log")).run(display);
        }
        BenchSummary summary = BenchSummary.read(results, djl);
        String table = summary.toMarkdown();
        WritablePath.write(out.resolve("summary.md"), table);
        WritablePath.write(out.resolve("summary.json"), Json.print(summary.toJson()) + "\n");
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println();
        stdout.print(table);
        stdout.println("\nWritten to " + out);
        stdout.flush();
        return 0;
    }
}
