package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.TimeLimitOption;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.fuzz.GraphCheck;
import dev.tflitearena.fuzz.PlannerFuzz;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.plan.PlanComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "fuzz-planner", mixinStandardHelpOptions = true,
        description = "Differential testing of the Java 'tflite' planner: builds seeded random graphs inside the native "
                + "interpreter (no-op kernels with temporaries, in-place flags, persistent tensors), compares the "
                + "native plan with the Java one tensor by tensor, and runs every Java planner's plan through the "
                + "validator. The first failures are shrunk and saved as graph JSON with the command that replays "
                + "them. Exit status 0 only when nothing failed.")
final class FuzzPlannerCommand implements Callable<Integer> {
    @Option(names = "--graphs", defaultValue = "1000", paramLabel = "N",
            description = "Random graphs to check (default: ${DEFAULT-VALUE}).")
    int graphs;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the run; graph i is a function of S and i alone (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", defaultValue = "target/fuzz-planner", paramLabel = "DIR",
            description = "Where shrunk failures are saved (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--replay", paramLabel = "FILE.json",
            description = "Check this graph JSON alone, a saved failure for instance, instead of random graphs.")
    Path replay;

    @Option(names = "--time-limit", defaultValue = "0.2", paramLabel = "SECONDS",
            description = "How long 'optimal' may search, per subgraph (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--time-budget", defaultValue = "0", paramLabel = "SECONDS",
            description = "Start no graph after this long; 0 for no limit (default: ${DEFAULT-VALUE}).")
    long timeBudget;

    @Option(names = "--threads", paramLabel = "N",
            description = "Graphs checked at once (default: the number of processors).")
    Integer threads;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Duration limit = TimeLimitOption.duration(timeLimit);
        if (replay != null) {
            GraphCheck check = PlannerFuzz.replay(GraphJson.read(replay), limit);
            output.print(() -> replayJson(check), o -> printReplay(o, check));
            return check.findings().isEmpty() ? 0 : CompareCommand.EXIT_DIFFERENT;
        }
        if (graphs < 0 || timeBudget < 0 || (threads != null && threads < 1)) {
            throw new IllegalArgumentException("--graphs and --time-budget must not be negative, --threads at least 1");
        }
        WritablePath.checkDirectory(out);
        PlannerFuzz.Settings settings = PlannerFuzz.Settings.of(graphs, seed, limit)
                .withTimeBudget(Duration.ofSeconds(timeBudget)).withOut(out);
        if (threads != null) {
            settings = settings.withThreads(threads);
        }
        PlannerFuzz.Report report;
        try (ProgressDisplay display = progress.open()) {
            report = PlannerFuzz.run(settings, display);
        }
        output.print(() -> runJson(report), o -> printRun(o, report));
        return report.clean() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private ObjectNode runJson(PlannerFuzz.Report r) {
        ObjectNode root = Json.object();
        root.put("seed", seed);
        root.put("graphs", r.graphs());
        root.put("tensors_compared", r.tensorsCompared());
        root.put("mismatches", r.mismatches());
        root.put("validator_failures", r.validatorFailures());
        root.put("errors", r.errors());
        root.put("seconds", r.elapsed().toMillis() / 1000.0);
        root.put("time_budget_spent", r.budgetSpent());
        ArrayNode failures = root.putArray("failures");
        for (PlannerFuzz.Failure f : r.failures()) {
            ObjectNode o = findingJson(failures.addObject(), f.finding());
            o.put("graph", f.index());
            o.put("graph_seed", f.graphSeed());
            if (f.saved() != null) {
                o.put("saved", f.saved().toString());
            }
        }
        return root;
    }

    private static void printRun(PrintWriter out, PlannerFuzz.Report r) {
        out.printf("graphs compared     %d%n", r.graphs());
        out.printf("tensors compared    %d%n", r.tensorsCompared());
        out.printf("mismatches          %d%n", r.mismatches());
        out.printf("validator failures  %d%n", r.validatorFailures());
        out.printf("errors              %d%n", r.errors());
        out.printf("time                %.1f s%s%n", r.elapsed().toMillis() / 1000.0,
                r.budgetSpent() ? " (time budget spent)" : "");
        for (PlannerFuzz.Failure f : r.failures()) {
            out.printf("%ngraph %d (graph seed %d): %s%n", f.index(), f.graphSeed(), f.finding().describe());
            if (f.saved() != null) {
                out.printf("  shrunk to %s, saved as %s%n  replay: %s%n", PlannerFuzz.size(f.shrunk()), f.saved(),
                        PlannerFuzz.replayCommand(f.saved()));
            }
        }
        out.println(r.clean() ? "no failures" : "FAILURES");
    }

    private ObjectNode replayJson(GraphCheck check) {
        ObjectNode root = Json.object();
        root.put("graph", replay.toString());
        root.put("tensors_compared", check.tensorsCompared());
        ArrayNode findings = root.putArray("failures");
        check.findings().forEach(f -> findingJson(findings.addObject(), f));
        if (check.comparison() != null) {
            ArrayNode mismatches = root.putArray("mismatches");
            for (PlanComparison.SubgraphComparison c : check.comparison().subgraphs()) {
                for (PlanComparison.Mismatch m : c.mismatches()) {
                    ObjectNode o = mismatches.addObject();
                    o.put("subgraph", c.subgraph());
                    o.put("tensor", m.tensor());
                    o.put("bytes", m.bytes());
                    Json.putOffset(o, "native_offset", m.expectedOffset());
                    Json.putOffset(o, "java_offset", m.actualOffset());
                }
            }
        }
        return root;
    }

    private void printReplay(PrintWriter out, GraphCheck check) {
        out.printf("%s: %d tensors compared%n", replay, check.tensorsCompared());
        if (check.comparison() != null && !check.comparison().identical()) {
            TextTable table = new TextTable("subgraph", "tensor", "bytes", "native_offset", "java_offset");
            for (PlanComparison.SubgraphComparison c : check.comparison().subgraphs()) {
                for (PlanComparison.Mismatch m : c.mismatches()) {
                    table.add(c.subgraph(), m.tensor(), m.bytes(), TextTable.orDash(m.expectedOffset()),
                            TextTable.orDash(m.actualOffset()));
                }
            }
            table.print(out);
        }
        check.findings().forEach(f -> out.println(f.describe()));
        out.println(check.findings().isEmpty() ? "no failures" : "FAILURES");
    }

    private static ObjectNode findingJson(ObjectNode o, GraphCheck.Finding f) {
        o.put("kind", f.kind().name().toLowerCase());
        o.put("who", f.who());
        o.put("detail", f.detail());
        return o;
    }
}
