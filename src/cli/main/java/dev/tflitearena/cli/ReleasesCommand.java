package dev.tflitearena.cli;

import dev.tflitearena.cli.options.MeasurementOptions;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.progress.ProgressCounter;
import dev.tflitearena.release.ReleaseReport;
import dev.tflitearena.release.ReleaseTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "releases", mixinStandardHelpOptions = true,
        description = "Runs 'release-report' on every TFLite release, each in its own JVM: builds the jar of each "
                + "release with its Maven profile (mvn -P tflite-X.Y package, into target/tflite-X.Y), runs it, and "
                + "writes DIR/X.Y.json per release and DIR/releases.md, the table of all of them, which it also "
                + "prints. Run it from the project's directory, with mvn on the PATH. Exit status 1 when a "
                + "cross-check finds a difference on some release.")
final class ReleasesCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "target/releases", paramLabel = "DIR",
            description = "Where the reports and the table go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--releases", split = ",", paramLabel = "X.Y",
            description = "The releases, oldest first (default: every one the project knows).")
    List<String> releases = Arrays.stream(TfliteRelease.values()).map(TfliteRelease::version).toList();

    @Option(names = "--size-threshold", defaultValue = "0", paramLabel = "PERCENT",
            description = "List a tensor count or an arena in the table's last column when it changed from the "
                    + "previous release by more than this (default: ${DEFAULT-VALUE}, any change).")
    double sizeThreshold;

    @Option(names = "--time-threshold", defaultValue = "25", paramLabel = "PERCENT",
            description = "List a time in the table's last column when it changed from the previous release by "
                    + "more than this (default: ${DEFAULT-VALUE}).")
    double timeThreshold;

    @Option(names = "--no-build", description = "Use the jars already in target/tflite-X.Y.")
    boolean noBuild;

    @Mixin
    MeasurementOptions measurement;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(Path.of("pom.xml"))) {
            throw new IllegalArgumentException("run 'releases' from the project's directory: it builds each "
                    + "release's jar with mvn -P tflite-X.Y");
        }
        WritablePath.checkDirectory(out);
        Files.createDirectories(out);
        List<ReleaseReport> reports = new ArrayList<>();
        boolean differs = false;
        // Lines even on a terminal: each release's 'release-report' draws its own bar there.
        try (ProgressDisplay display = progress.openAsLines()) {
            ProgressCounter steps = new ProgressCounter(display, (noBuild ? 1L : 2L) * releases.size());
            for (String version : releases) {
                TfliteRelease release = TfliteRelease.of(version);
                Path jar = Path.of("target", "tflite-" + release.version(), "tflite-arena.jar");
                if (!noBuild) {
                    steps.next("building TFLite " + release + ": " + jar);
                    // The command line's module and those it needs; the tests are compiled (for the modules'
                    // test jars) but not run.
                    run("mvn", "-q", "-B", "-P", "tflite-" + release.version(), "package", "-DskipTests",
                            "-DskipModelFetch", "-pl", "src/cli", "-am");
                }
                Path report = out.resolve(release.version() + ".json");
                steps.next("measuring TFLite " + release + ": " + report);
                List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString(), "release-report",
                        "--out", report.toString()));
                command.addAll(measurement.asArguments());
                if (progress.quiet()) {
                    command.add(ProgressOptions.QUIET);
                }
                int status = run(command.toArray(String[]::new));
                differs |= status == CompareCommand.EXIT_DIFFERENT;
                reports.add(ReleaseReport.read(report));
            }
        }
        String table = ReleaseTable.markdown(reports, new ReleaseTable.Thresholds(sizeThreshold, timeThreshold));
        WritablePath.write(out.resolve("releases.md"), table);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println();
        stdout.print(table);
        stdout.println("\nWritten to " + out);
        stdout.flush();
        return differs ? CompareCommand.EXIT_DIFFERENT : 0;
    }

    /** Runs a command with this one's output; fails unless it exits 0, or 1 (a difference found). */
    private static int run(String... command) throws IOException, InterruptedException {
        int status = new ProcessBuilder(command).inheritIO().start().waitFor();
        if (status != 0 && status != CompareCommand.EXIT_DIFFERENT) {
            throw new IllegalStateException(String.join(" ", command) + " exited with status " + status);
        }
        return status;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
