package dev.tflitearena.cli;

import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.plan.baked.PlanFingerprint;
import dev.tflitearena.progress.ProgressCounter;
import dev.tflitearena.progress.Progress;
import dev.tflitearena.release.compare.InterleavedAnalysis;
import dev.tflitearena.release.compare.ReleaseComparison;
import dev.tflitearena.release.compare.RoundReport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The rounds of {@code releases --compare}: side A's and side B's measuring JVMs one after the other, A B B A
 * A B ..., so that a drift of the machine's speed during the run falls on both sides alike; each round a fresh
 * JVM per side, so that one JVM's luck (its heap's layout, where its arenas landed) is one round's, not the side's.
 */
final class InterleavedRun {
    /** JavaCPP's cache folder, which a command's own child JVM inherits with the rest of its options. */
    static final String CACHE_PROPERTY = "org.bytedeco.javacpp.cachedir";

    /** One side: a release's jar or a jar given, and the models it times. */
    record Side(String label, Path jar, Path models) {
    }

    private final Side a;
    private final Side b;
    private final Path roundsDirectory;
    private final List<String> roundArguments;
    /** The models every round leaves out: those neither side can run. */
    private List<String> skipped = List.of();

    /**
     * @param roundArguments what every {@code release-round} gets besides its models, plans and output
     */
    InterleavedRun(Side a, Side b, Path roundsDirectory, List<String> roundArguments) {
        this.a = a;
        this.b = b;
        this.roundsDirectory = roundsDirectory;
        this.roundArguments = List.copyOf(roundArguments);
    }

    /**
     * Asks each side which models it can run, before any round; the models neither side runs are left out of the
     * rounds from then on, and returned with why (side A's error). A model one side runs and the other does not
     * stays in: it is not compared, which is a regression.
     */
    List<ReleaseComparison.NotCompared> leaveOutNotRunnable(Progress progress) throws IOException,
            InterruptedException {
        Files.createDirectories(roundsDirectory);
        progress.step("which models side A (" + a.label() + ") can run");
        RoundReport ra = round(a, roundsDirectory.resolve("runnable-A.json"), null, List.of("--runnable"));
        progress.step("which models side B (" + b.label() + ") can run");
        RoundReport rb = round(b, roundsDirectory.resolve("runnable-B.json"), null, List.of("--runnable"));
        List<ReleaseComparison.NotCompared> notRunnable = new ArrayList<>();
        for (RoundReport.ModelRound m : ra.models()) {
            boolean neither = !m.ok() && rb.model(m.model()).map(o -> !o.ok()).orElse(false);
            if (neither) {
                // The error starts with the model's path, which the line names already.
                String why = m.error();
                int named = why.indexOf(m.model() + ": ");
                notRunnable.add(new ReleaseComparison.NotCompared(m.model(), named < 0 ? why
                        : why.substring(named + m.model().length() + 2)));
            }
        }
        skipped = notRunnable.stream().map(ReleaseComparison.NotCompared::model).toList();
        return notRunnable;
    }

    /** Runs the rounds, each a step of {@code progress}, and compares them. */
    ReleaseComparison run(int rounds, double confidence, Progress progress,
                          List<ReleaseComparison.NotCompared> notRunnable) throws IOException, InterruptedException {
        Files.createDirectories(roundsDirectory);
        List<RoundReport> aRounds = new ArrayList<>();
        List<RoundReport> bRounds = new ArrayList<>();
        List<String> order = new ArrayList<>();
        ProgressCounter steps = new ProgressCounter(progress, 2L * rounds);
        for (int r = 0; r < rounds; r++) {
            boolean aFirst = r % 2 == 0;
            for (boolean sideA : aFirst ? new boolean[]{true, false} : new boolean[]{false, true}) {
                Side side = sideA ? a : b;
                String name = sideA ? "A" : "B";
                // The last round also reads the plans, each under the other side's rules, known by then.
                String plansFor = r == rounds - 1 ? (sideA ? bRounds : aRounds).get(0).tfliteRelease() : null;
                steps.next(String.format("round %d of %d, side %s (%s)", r + 1, rounds, name, side.label()));
                RoundReport report = round(side, roundsDirectory.resolve("round-" + (r + 1) + "-" + name + ".json"),
                        plansFor, roundArguments);
                (sideA ? aRounds : bRounds).add(report);
                order.add(name);
            }
        }
        return InterleavedAnalysis.compare(side(a, aRounds.get(0)), side(b, bRounds.get(0)), aRounds, bRounds, order,
                confidence, notRunnable);
    }

    private RoundReport round(Side side, Path out, String plansFor, List<String> arguments) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(javaJar(side.jar()));
        command.addAll(List.of("release-round", "--models-dir", side.models().toString(), "--out", out.toString(),
                ProgressOptions.QUIET));
        command.addAll(arguments);
        if (!skipped.isEmpty()) {
            command.add("--skip");
            command.add(String.join(",", skipped));
        }
        if (plansFor != null) {
            command.add("--plans-for");
            command.add(plansFor);
        }
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int status = process.waitFor();
        if (status != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with status " + status);
        }
        return RoundReport.read(out);
    }

    private static ReleaseComparison.Side side(Side side, RoundReport first) {
        return new ReleaseComparison.Side(side.label(), side.jar().toString(), first.tfliteLibrary(),
                first.tfliteRelease(), side.models().toString());
    }

    /** The jar of a release's Maven profile, as {@code mvn -P tflite-X.Y package} builds it. */
    static Path releaseJar(TfliteRelease release) {
        return Path.of("target", "tflite-" + release.version(), "tflite-arena.jar");
    }

    /**
     * {@code java -jar JAR} with the jar's natives extracted to a JavaCPP cache of its own. JavaCPP keys its cache
     * by the jar's file name, and every release's jar is a tflite-arena.jar: two releases' JVMs starting at once
     * would extract different TFLite libraries into one folder. The cache is named by the jar's folder and a hash
     * of its path, so that a release's jar finds its natives again next time.
     */
    static List<String> javaJar(Path jar) {
        return List.of(java(), "-D" + CACHE_PROPERTY + "=" + cacheDirectory(jar), "-jar", jar.toString());
    }

    static Path cacheDirectory(Path jar) {
        Path absolute = jar.toAbsolutePath().normalize();
        Path folder = absolute.getParent() == null ? null : absolute.getParent().getFileName();
        String hash = HexFormat.of().formatHex(PlanFingerprint.sha256(ByteBuffer.wrap(absolute.toString()
                .getBytes(StandardCharsets.UTF_8))), 0, 6);
        return Path.of(System.getProperty("user.home"), ".javacpp", "cache",
                "tflite-arena-" + (folder == null ? "" : folder + "-") + hash);
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
