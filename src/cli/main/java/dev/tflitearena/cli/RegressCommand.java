package dev.tflitearena.cli;

import dev.tflitearena.release.Regression;
import dev.tflitearena.release.ReleaseReport;
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
        description = "Compares a release report with a baseline (both written by 'release-report' or "
                + "'releases'), model by model, and prints what regressed: an arena (rw or persistent) that grew by "
                + "more than --max-arena-growth, an Invoke slower by more than --max-latency-growth, a model gone "
                + "or no longer built. Exit status 1 when anything regressed: a gate for CI.")
final class RegressCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BASELINE.json")
    Path baseline;

    @Parameters(index = "1", paramLabel = "CURRENT.json")
    Path current;

    @Option(names = "--max-arena-growth", defaultValue = "0", paramLabel = "PERCENT",
            description = "Growth of either arena allowed, in percent (default: ${DEFAULT-VALUE}, any growth "
                    + "regresses).")
    double maxArenaGrowth;

    @Option(names = "--max-latency-growth", defaultValue = "25", paramLabel = "PERCENT",
            description = "Growth of the median Invoke time allowed, in percent (default: ${DEFAULT-VALUE}).")
    double maxLatencyGrowth;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ReleaseReport before = ReleaseReport.read(baseline);
        ReleaseReport after = ReleaseReport.read(current);
        List<Regression.Finding> findings = Regression.find(before, after, maxArenaGrowth, maxLatencyGrowth);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf("%s (TFLite %s) -> %s (TFLite %s): %d models compared%n", baseline, before.tfliteLibrary(),
                current, after.tfliteLibrary(), before.models().stream().filter(m -> m.ok()).count());
        for (ReleaseReport report : List.of(before, after)) {
            if (report.machine().busy()) {
                stdout.printf("warning: TFLite %s was measured on a busy machine (%s): its times are unreliable%n",
                        report.tfliteLibrary(), report.machine());
            }
        }
        findings.forEach(f -> stdout.println("REGRESSED " + f));
        stdout.println(findings.isEmpty() ? "no regression" : findings.size() + " regression"
                + (findings.size() == 1 ? "" : "s"));
        stdout.flush();
        return findings.isEmpty() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }
}
