package dev.tflitearena.cli;

import dev.tflitearena.cli.options.MeasurementOptions;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.RoundOptions;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.progress.ProgressCounter;
import dev.tflitearena.release.ReleaseReport;
import dev.tflitearena.release.ReleaseTable;
import dev.tflitearena.release.compare.ComparisonPage;
import dev.tflitearena.release.compare.ComparisonTable;
import dev.tflitearena.release.compare.InterleavedAnalysis;
import dev.tflitearena.release.compare.Metric;
import dev.tflitearena.release.compare.PairedRatio;
import dev.tflitearena.release.compare.ReleaseComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import dev.tflitearena.progress.Progress;
import java.util.regex.Pattern;
import java.util.regex.Matcher;
import java.nio.charset.StandardCharsets;
import java.io.InputStreamReader;
import java.io.BufferedWriter;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

@Command(name = "releases", mixinStandardHelpOptions = true,
        description = {"Runs 'release-report' on every TFLite release, each in its own JVM: builds the jar of each "
                + "release with its Maven profile (mvn -P tflite-X.Y package, into target/tflite-X.Y), runs it, and "
                + "writes DIR/X.Y.json per release and DIR/releases.md, the table of all of them, which it also "
                + "prints. Run it from the project's directory, with mvn on the PATH. Exit status 1 when a "
                + "cross-check finds a difference on some release.",
                "",
                "With --compare A,B: times two releases (or two jars) interleaved instead, round after round, each "
                + "round a fresh JVM per side in the order A B, B A, A B ..., and gives per model and metric the "
                + "ratio B/A with a confidence interval and a verdict (slower, faster, no change detected); the same "
                + "per op type, with the nodes behind an op that changed; and the tensors whose place in TFLite's "
                + "plan moved. Writes DIR/compare-A-B/comparison.json, comparison.md and comparison.html, and the "
                + "rounds' files; 'regress' gates on comparison.json."})
final class ReleasesCommand implements Callable<Integer> {
    /**
     * Maven's "Building tflite-arena-core 0.1.0-SNAPSHOT" (not "Building jar: ...") and "--- compiler:3.13.0:compile
     * (default-compile)".
     */
    private static final Pattern BUILDING = Pattern.compile("\\[INFO\\] Building (\\S+) \\d");
    private static final Pattern STEP = Pattern.compile("\\[INFO\\] --- (\\S+?)(:\\S+)?:(\\S+) ");
    private static final int BUILD_LINES_SHOWN = 30;

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

    @Option(names = "--no-build", description = "Use the jars already in target/tflite-X.Y.")
    boolean noBuild;

    @Option(names = "--compare", split = ",", paramLabel = "A,B",
            description = "Compare two sides interleaved instead: each a release (X.Y, its jar built with its "
                    + "profile) or a jar file.")
    List<String> compare;

    @Option(names = "--rounds", defaultValue = "16", paramLabel = "N",
            description = "With --compare: rounds, each timing every model once per side (default: "
                    + "${DEFAULT-VALUE}; at least enough for an interval over the models at --confidence).")
    int rounds;


    @Option(names = "--models-b", paramLabel = "DIR",
            description = "With --compare: side B's models, matched to side A's by file name (default: --models-dir). "
                    + "'slowed-models' makes such a directory, to validate the comparison end to end.")
    Path modelsB;

    @Option(names = "--confidence", defaultValue = "95", paramLabel = "PERCENT",
            description = "With --compare: the confidence of each family of intervals, one metric over the models or "
                    + "one model's op types, which hold together (default: ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--json", description = "With --compare: print comparison.json instead of its table.")
    boolean json;

    @Mixin
    MeasurementOptions measurement;

    /** With --compare: how each round times a model. */
    @Mixin
    RoundOptions round;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        WritablePath.checkDirectory(out);
        if (compare != null) {
            return compare();
        }
        if (!noBuild) {
            checkProjectDirectory();
        }
        Files.createDirectories(out);
        List<ReleaseReport> reports = new ArrayList<>();
        boolean differs = false;
        // Lines even on a terminal: each release's 'release-report' draws its own bar there.
        try (ProgressDisplay display = progress.openAsLines()) {
            ProgressCounter steps = new ProgressCounter(display, (noBuild ? 1L : 2L) * releases.size());
            for (String version : releases) {
                TfliteRelease release = TfliteRelease.of(version);
                Path jar = InterleavedRun.releaseJar(release);
                if (!noBuild) {
                    steps.next("building TFLite " + release + ": " + jar);
                    build(release, display);
                }
                Path report = out.resolve(release.version() + ".json");
                steps.next("measuring TFLite " + release + ": " + report);
                List<String> command = new ArrayList<>(InterleavedRun.javaJar(jar));
                command.addAll(List.of("release-report", "--out", report.toString()));
                command.addAll(List.of("--models-dir", measurement.modelsDirectory.toString()));
                if (progress.quiet()) {
                    command.add(ProgressOptions.QUIET);
                }
                int status = run(command.toArray(String[]::new));
                differs |= status == CompareCommand.EXIT_DIFFERENT;
                reports.add(ReleaseReport.read(report));
            }
        }
        String table = ReleaseTable.markdown(reports, sizeThreshold);
        WritablePath.write(out.resolve("releases.md"), table);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println();
        stdout.print(table);
        stdout.println("\nWritten to " + out);
        stdout.flush();
        return differs ? CompareCommand.EXIT_DIFFERENT : 0;
    }

    private int compare() throws Exception {
        if (compare.size() != 2) {
            throw new IllegalArgumentException("--compare takes two sides, A,B; got " + compare.size());
        }
        if (!(confidence > 0 && confidence < 100)) {
            throw new IllegalArgumentException("--confidence must be between 0 and 100, got " + confidence);
        }
        if (round.samples < 1 || round.warmup < 0) {
            throw new IllegalArgumentException("--samples " + round.samples + ", --warmup " + round.warmup + ": a round "
                    + "takes at least 1 sample and no negative warm-up");
        }
        List<Path> models = modelsIn(measurement.modelsDirectory);
        Path bModels = modelsB == null ? measurement.modelsDirectory : modelsB;
        modelsIn(bModels);
        // Checked again over the models both sides can run, once they are known; this much no count of them lowers.
        checkRounds(1);
        round.metrics.forEach(Metric::of);
        List<InterleavedRun.Side> sides = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String given = compare.get(i).strip();
            Path sideModels = i == 0 ? measurement.modelsDirectory : bModels;
            if (given.endsWith(".jar")) {
                if (!Files.isRegularFile(Path.of(given))) {
                    throw new IllegalArgumentException(given + ": no such jar");
                }
                sides.add(new InterleavedRun.Side(given, Path.of(given), sideModels));
            } else {
                TfliteRelease release = TfliteRelease.of(given);
                sides.add(new InterleavedRun.Side(release.version(), InterleavedRun.releaseJar(release), sideModels));
            }
        }
        Path directory = out.resolve("compare-" + name(compare.get(0)) + "-" + name(compare.get(1)));
        WritablePath.checkDirectory(directory);
        for (InterleavedRun.Side side : sides) {
            if (noBuild && !Files.isRegularFile(side.jar())) {
                throw new IllegalArgumentException(side.jar() + ": no such jar (--no-build uses the jars already "
                        + "built)");
            }
        }
        for (InterleavedRun.Side side : sides) {
            if (side.label().endsWith(".jar")) {
                checkRunnableJar(side.jar());
            }
        }
        PrintWriter stdout = spec.commandLine().getOut();
        ReleaseComparison comparison;
        try (ProgressDisplay display = progress.openAsLines()) {
            if (!noBuild && compare.stream().anyMatch(s -> !s.strip().endsWith(".jar"))) {
                checkProjectDirectory();
                for (String version : compare.stream().filter(s -> !s.strip().endsWith(".jar"))
                        .map(s -> TfliteRelease.of(s).version()).distinct().toList()) {
                    display.step("building TFLite " + version + ": " + InterleavedRun.releaseJar(TfliteRelease.of(version)));
                    build(TfliteRelease.of(version), display);
                }
            }
            for (InterleavedRun.Side side : sides) {
                checkRunnableJar(side.jar());
            }
            InterleavedRun run = new InterleavedRun(sides.get(0), sides.get(1), directory.resolve("rounds"),
                    round.asArguments());
            List<ReleaseComparison.NotCompared> notRunnable = run.leaveOutNotRunnable(display);
            PrintWriter err = spec.commandLine().getErr();
            notRunnable.forEach(m -> err.println("releases: " + m.model() + " left out, neither side can run it: "
                    + m.why()));
            err.flush();
            if (notRunnable.size() == models.size()) {
                throw new IllegalArgumentException("neither side can run any model of " + measurement.modelsDirectory
                        + ": nothing to compare");
            }
            checkRounds(models.size() - notRunnable.size());
            comparison = run.run(rounds, confidence / 100, display, notRunnable);
        }
        String table = ComparisonTable.markdown(comparison);
        WritablePath.write(directory.resolve("comparison.json"), comparison.toJson());
        WritablePath.write(directory.resolve("comparison.md"), table);
        WritablePath.write(directory.resolve("comparison.html"), ComparisonPage.html(comparison));
        if (json) {
            stdout.print(comparison.toJson());
        } else {
            stdout.print(table);
            stdout.println("\nWritten to " + directory + ": comparison.json, comparison.md, comparison.html");
        }
        stdout.flush();
        return 0;
    }

    /** Refuses --rounds too few for an interval over this many models at --confidence. */
    private void checkRounds(int models) {
        int needed = PairedRatio.minimumRounds(InterleavedAnalysis.each(confidence / 100, models));
        if (rounds < needed) {
            throw new IllegalArgumentException("--rounds " + rounds + " is too few: intervals at " + confidence
                    + "% over " + models + " models need at least " + needed + " rounds");
        }
    }

    /** The models of a side's directory, refused before any round when there are none. */
    private static List<Path> modelsIn(Path directory) throws IOException {
        List<Path> models = ReleaseReportCommand.models(directory);
        if (models.isEmpty()) {
            throw new IllegalArgumentException(directory + ": no .tflite model in it, nothing to compare");
        }
        return models;
    }

    /** Refuses, before any round, a jar that is not this project's command line (corrupt, or another's). */
    private static void checkRunnableJar(Path jar) {
        String mainClass;
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            mainClass = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
        } catch (IOException e) {
            throw new IllegalArgumentException(jar + ": not a runnable jar of this project: " + e.getMessage());
        }
        if (!Main.class.getName().equals(mainClass)) {
            throw new IllegalArgumentException(jar + ": not a runnable jar of this project (its Main-Class is "
                    + mainClass + ", not " + Main.class.getName() + ")");
        }
    }

    /** A side's name in a directory's name: the release, or the jar's file name without ".jar". */
    private static String name(String side) {
        String file = Path.of(side.strip()).getFileName().toString();
        return file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file;
    }

    private void checkProjectDirectory() {
        if (!Files.isRegularFile(Path.of("pom.xml"))) {
            throw new IllegalArgumentException("run 'releases' from the project's directory: it builds each "
                    + "release's jar with mvn -P tflite-X.Y (--no-build uses the jars already built)");
        }
    }

    /**
     * Builds a release's jar: the command line's module and those it needs, tests compiled but not run. Maven's
     * output goes to {@code build-X.Y.log} under --out, never to standard output (which --json keeps for JSON);
     * the module and step it is at go to {@code progress}, and the log's end to standard error if it fails.
     */
    private void build(TfliteRelease release, Progress progress) throws IOException, InterruptedException {
        Files.createDirectories(out);
        Path log = out.resolve("build-" + release.version() + ".log");
        String label = "building TFLite " + release.version();
        Process process = new ProcessBuilder("mvn", "-B", "-P", "tflite-" + release.version(), "package",
                "-DskipTests", "-DskipModelFetch", "-pl", "src/cli", "-am").redirectErrorStream(true).start();
        process.getOutputStream().close();
        String module = "";
        List<String> tail = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); BufferedWriter written = Files.newBufferedWriter(log)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                written.write(line);
                written.newLine();
                tail.add(line);
                if (tail.size() > BUILD_LINES_SHOWN) {
                    tail.remove(0);
                }
                Matcher building = BUILDING.matcher(line);
                Matcher step = STEP.matcher(line);
                if (building.find()) {
                    module = building.group(1);
                    progress.step(label + ": " + module);
                } else if (step.find()) {
                    progress.step(label + ": " + module + ", " + step.group(1) + ":" + step.group(3));
                }
            }
        }
        int status = process.waitFor();
        if (status != 0) {
            PrintWriter err = spec.commandLine().getErr();
            tail.forEach(err::println);
            err.flush();
            throw new IllegalStateException(label + " failed (mvn exited with status " + status + "); its output is in "
                    + log);
        }
    }

    /** Runs a command with this one's output; fails unless it exits 0, or 1 (a difference found). */
    private static int run(String... command) throws IOException, InterruptedException {
        int status = new ProcessBuilder(command).inheritIO().start().waitFor();
        if (status != 0 && status != CompareCommand.EXIT_DIFFERENT) {
            throw new IllegalStateException(String.join(" ", command) + " exited with status " + status);
        }
        return status;
    }

}
