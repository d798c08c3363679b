package dev.tflitearena.cli;

import dev.tflitearena.release.Regression;
import dev.tflitearena.release.ReleaseJson;
import dev.tflitearena.release.ReleaseReport;
import dev.tflitearena.release.compare.ComparisonRegressions;
import dev.tflitearena.release.compare.ReleaseComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "regress", mixinStandardHelpOptions = true,
        description = {"A gate for CI; exit status 1 when anything regressed.",
                "With two release reports (BASELINE.json CURRENT.json, from 'release-report' or 'releases'): compares "
                        + "their exact figures model by model: an arena (rw or persistent) that grew by more than "
                        + "--max-arena-growth, a cross-check that finds a difference the baseline did not, a model "
                        + "gone or no longer built.",
                "With one comparison (COMPARISON.json, from 'releases --compare A,B'): an arena of B's that grew, and "
                        + "a time whose interval puts B slower than A by more than --max-latency-growth (the "
                        + "interval's lower end above it), and a model not compared. Times are never compared across "
                        + "runs: only within one interleaved comparison."})
final class RegressCommand implements Callable<Integer> {
    @Parameters(arity = "1..2", paramLabel = "FILE",
            description = "BASELINE.json CURRENT.json (release reports), or COMPARISON.json.")
    List<Path> files;

    @Option(names = "--max-arena-growth", defaultValue = "0", paramLabel = "PERCENT",
            description = "Growth of either arena allowed, in percent (default: ${DEFAULT-VALUE}, any growth "
                    + "regresses).")
    double maxArenaGrowth;

    @Option(names = "--max-latency-growth", defaultValue = "5", paramLabel = "PERCENT",
            description = "With a comparison: how much slower B may be, in percent; a time regresses when its "
                    + "interval's lower end exceeds this (default: ${DEFAULT-VALUE}).")
    double maxLatencyGrowth;

    @Option(names = "--require-all", description = "With a comparison: a model neither side could run (an op "
            + "their resolvers lack; listed as not_runnable) regresses too.")
    boolean requireAll;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (files.size() > 2) {
            throw new IllegalArgumentException(files.get(2) + ": one file too many: regress takes BASELINE.json "
                    + "CURRENT.json, or COMPARISON.json alone");
        }
        allowance("--max-arena-growth", maxArenaGrowth);
        allowance("--max-latency-growth", maxLatencyGrowth);
        PrintWriter stdout = spec.commandLine().getOut();
        List<Regression.Finding> findings;
        if (files.size() == 1) {
            ReleaseComparison comparison = ReleaseComparison.read(files.get(0));
            findings = ComparisonRegressions.find(comparison, maxArenaGrowth, maxLatencyGrowth, requireAll);
            stdout.printf("%s: %s (TFLite %s) -> %s (TFLite %s), %d rounds interleaved: %d models compared%n",
                    files.get(0), comparison.a().label(), comparison.a().tfliteLibrary(), comparison.b().label(),
                    comparison.b().tfliteLibrary(), comparison.rounds(),
                    comparison.comparisons().stream().map(ReleaseComparison.Comparison::model).distinct().count());
            comparison.notRunnable().forEach(m -> stdout.println("not runnable on either side, not gated" + (requireAll
                    ? " (but --require-all)" : "") + ": " + m));
        } else {
            for (Path file : files) {
                if (ReleaseComparison.FORMAT.equals(ReleaseJson.format(file))) {
                    throw new IllegalArgumentException(file + " is a comparison: give it alone, not beside another "
                            + "file");
                }
            }
            ReleaseReport before = ReleaseReport.read(files.get(0));
            ReleaseReport after = ReleaseReport.read(files.get(1));
            findings = Regression.find(before, after, maxArenaGrowth);
            stdout.printf("%s (TFLite %s) -> %s (TFLite %s): %d models compared, exact figures only%n", files.get(0),
                    before.tfliteLibrary(), files.get(1), after.tfliteLibrary(),
                    before.models().stream().filter(m -> m.ok()).count());
        }
        findings.forEach(f -> stdout.println("REGRESSED " + f));
        stdout.println(findings.isEmpty() ? "no regression" : findings.size() + " regression"
                + (findings.size() == 1 ? "" : "s"));
        stdout.flush();
        return findings.isEmpty() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    /** An allowance is a percentage of 0 or more: NaN would turn its gate off, a negative one fail it always. */
    private static void allowance(String option, double percent) {
        if (!(percent >= 0) || Double.isInfinite(percent)) {
            throw new IllegalArgumentException(option + " " + percent + ": an allowance is a finite percentage of 0 "
                    + "or more");
        }
    }
}
