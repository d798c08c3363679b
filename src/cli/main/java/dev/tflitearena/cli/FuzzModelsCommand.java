package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.isolation.IsolatedRun.Outcome;
import dev.tflitearena.fuzz.ModelFuzz;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "fuzz-models", mixinStandardHelpOptions = true,
        description = "Hostile models: seeded mutants of the real and sample models (bit flips, truncation, a "
                + "corrupt header, root and vtable offsets, vector lengths, huge tensor dimensions, buffer, opcode "
                + "and tensor indices out of range). Every mutant goes through the pure-Java reader in this JVM "
                + "('inspect'); the first --native ones also through every native step ('plan', 'compare', 'run', "
                + "without and with XNNPACK: what TfLiteModel.loadUntrusted checks) "
                + "in a child JVM, where a crash cannot take this one down. Prints the count of each outcome: ok, "
                + "refused (a clear error), failed (an unexpected exception), crashed, timed out, out of memory. "
                + "Every mutant that is neither ok nor refused is saved to DIR with the command that reproduces "
                + "it. Exit status 0 only when every mutant was read or refused.")
final class FuzzModelsCommand implements Callable<Integer> {
    @Option(names = "--mutants", defaultValue = "1000", paramLabel = "N",
            description = "Mutants to make (default: ${DEFAULT-VALUE}).")
    int mutants;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the run; mutant i is a function of S, i and the models alone (default: "
                    + "${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--native", paramLabel = "N",
            description = "How many of the mutants, from the first, also run natively (default: all).")
    Integer nativeMutants;

    @Option(names = "--out", defaultValue = "target/fuzz-models", paramLabel = "DIR",
            description = "Where findings are saved (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--models-dir", defaultValue = "tests/models", paramLabel = "DIR",
            description = "The real models to mutate, beside the sample models (default: ${DEFAULT-VALUE}).")
    Path modelsDir;

    @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
            description = "A child that spends longer on one mutant is killed, and the mutant counted as timed "
                    + "out (default: ${DEFAULT-VALUE}).")
    long timeout;

    @Option(names = "--time-budget", defaultValue = "0", paramLabel = "SECONDS",
            description = "Start no native batch after this long; 0 for no limit (default: ${DEFAULT-VALUE}).")
    long timeBudget;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws IOException {
        if (mutants < 0 || timeBudget < 0 || timeout < 1 || (nativeMutants != null && nativeMutants < 0)) {
            throw new IllegalArgumentException("--mutants, --native and --time-budget must not be negative, "
                    + "--timeout at least 1");
        }
        WritablePath.checkDirectory(out);
        IsolatedRun.Limits limits = IsolatedRun.Limits.withTimeout(Duration.ofSeconds(timeout));
        ModelFuzz.Settings settings = new ModelFuzz.Settings(mutants, nativeMutants == null ? mutants : nativeMutants,
                seed, Duration.ofSeconds(timeBudget), out, limits);
        ModelFuzz.Report report;
        try (ProgressDisplay display = progress.open()) {
            report = ModelFuzz.run(settings, ModelFuzz.sources(modelsDir), display);
        }
        output.print(() -> json(report), o -> print(o, report));
        return report.findings().isEmpty() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private ObjectNode json(ModelFuzz.Report r) {
        ObjectNode root = Json.object();
        root.put("seed", seed);
        root.put("mutants", r.mutants());
        root.put("native_mutants", r.nativeMutants());
        counts(root.putObject("in_process"), r.inProcess());
        counts(root.putObject("isolated"), r.isolated());
        root.put("slowest_read_seconds", r.slowestRead().toNanos() / 1e9);
        root.put("seconds", r.elapsed().toMillis() / 1000.0);
        root.put("time_budget_spent", r.budgetSpent());
        ArrayNode findings = root.putArray("findings");
        for (ModelFuzz.Finding f : r.findings()) {
            ObjectNode o = findings.addObject();
            o.put("mutant", f.mutant().index());
            o.put("source", f.mutant().source());
            o.put("mutation", f.mutant().mutation());
            o.put("path", f.path());
            o.put("outcome", f.outcome().name().toLowerCase());
            o.put("stage", f.stage());
            o.put("detail", f.detail());
            if (f.saved() != null) {
                o.put("saved", f.saved().toString());
                o.put("reproduce", ModelFuzz.reproduceCommand(f.path(), f.saved()));
            }
        }
        return root;
    }

    /** Each outcome's count, zeros included: shared by the fuzzers that run children. */
    static void counts(ObjectNode o, Map<Outcome, Integer> counts) {
        for (Outcome outcome : Outcome.values()) {
            o.put(outcome.name().toLowerCase(), counts.getOrDefault(outcome, 0));
        }
    }

    private static void print(PrintWriter out, ModelFuzz.Report r) {
        TextTable table = new TextTable("outcome", "in-process (" + r.mutants() + ")",
                "isolated native (" + r.nativeMutants() + ")");
        for (Outcome outcome : Outcome.values()) {
            table.add(outcome.name().toLowerCase(), r.inProcess().getOrDefault(outcome, 0),
                    r.isolated().getOrDefault(outcome, 0));
        }
        table.print(out);
        out.printf("slowest read  %.3f s%n", r.slowestRead().toNanos() / 1e9);
        out.printf("time          %.1f s%s%n", r.elapsed().toMillis() / 1000.0,
                r.budgetSpent() ? " (time budget spent)" : "");
        for (ModelFuzz.Finding f : r.findings()) {
            out.printf("%n%s%n", f.describe());
            if (f.saved() != null) {
                out.printf("  reproduce: %s%n", ModelFuzz.reproduceCommand(f.path(), f.saved()));
            }
        }
        out.println(r.findings().isEmpty() ? "no findings" : r.findings().size() + " findings");
    }
}
