package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.fuzz.BakedPlanFuzz;
import dev.tflitearena.fuzz.BakedPlanTampering.Expect;
import dev.tflitearena.fuzz.ModelFuzz;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.isolation.IsolatedRun.Outcome;
import dev.tflitearena.plan.baked.BakedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "fuzz-baked", mixinStandardHelpOptions = true,
        description = "Tampered baked plans: each model (the real ones and the samples) baked with TFLite's rules, "
                + "then its entry '" + BakedPlan.NAME + "' edited field by field (every field of the "
                + "fingerprint, the subgraph entries, the arenas and the placements, with values that wrap a sum, "
                + "the limits of a type, off by one, misaligned, past the end), its bytes flipped and cut at random, "
                + "and copied onto other models. Every file goes through TfLiteModel.load, sessions with the baked "
                + "plan IF_VALID, REQUIRED and IGNORED, and a pool, in child JVMs; with --command-line also through "
                + "'run MODEL', 'plan MODEL' and 'run ORIGINAL --plan MODEL'. Counts JVM deaths, IF_VALID throws, "
                + "REQUIRED acceptances of a wrong plan and outputs that differ from the original model's. The files "
                + "stay in DIR. Exit status 0 only when there is no finding.")
final class FuzzBakedCommand implements Callable<Integer> {
    @Option(names = "--raw", defaultValue = "20", paramLabel = "N",
            description = "Random byte edits of each model's entry, beside one file per field edit (default: "
                    + "${DEFAULT-VALUE}).")
    int raw;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the edits' values (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", defaultValue = "target/fuzz-baked", paramLabel = "DIR",
            description = "Where the tampered models are written, a folder per model with its original and "
                    + "edits.tsv, each file's edit and what it must get (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--models-dir", defaultValue = "tests/models", paramLabel = "DIR",
            description = "The real models, beside the sample models (default: ${DEFAULT-VALUE}).")
    Path modelsDir;

    @Option(names = "--samples", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Bake the sample models too (default: ${DEFAULT-VALUE}; --no-samples: the real ones "
                    + "alone).")
    boolean samples;

    @Option(names = "--command-line", description = "Also put every file through the command line.")
    boolean commandLine;

    @Option(names = "--timeout", defaultValue = "120", paramLabel = "SECONDS",
            description = "A child that spends longer on one file is killed, and the file counted as timed out "
                    + "(default: ${DEFAULT-VALUE}).")
    long timeout;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws IOException {
        if (raw < 0 || timeout < 1) {
            throw new IllegalArgumentException("--raw must not be negative, --timeout at least 1");
        }
        WritablePath.checkDirectory(out);
        IsolatedRun.Limits limits = IsolatedRun.Limits.withTimeout(Duration.ofSeconds(timeout));
        BakedPlanFuzz.Settings settings = new BakedPlanFuzz.Settings(raw, seed, out, limits,
                commandLine ? BakedCommandsProbe.class : null);
        BakedPlanFuzz.Report report;
        try (ProgressDisplay display = progress.open()) {
            Map<String, byte[]> models = ModelFuzz.sources(modelsDir);
            if (!samples) {
                models.keySet().retainAll(models.keySet().stream().filter(name -> name.endsWith(".tflite")).toList());
            }
            report = BakedPlanFuzz.run(models, settings, display);
        }
        output.print(() -> json(report), o -> print(o, report));
        return report.clean() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private ObjectNode json(BakedPlanFuzz.Report r) {
        ObjectNode root = Json.object();
        root.put("seed", seed);
        root.put("files", r.files());
        ObjectNode expected = root.putObject("expected");
        for (Expect e : Expect.values()) {
            expected.put(e.name().toLowerCase(), r.expected().getOrDefault(e, 0));
        }
        ObjectNode skipped = root.putObject("skipped");
        r.skipped().forEach(skipped::put);
        FuzzModelsCommand.counts(root.putObject("sessions"), r.sessions());
        if (commandLine) {
            FuzzModelsCommand.counts(root.putObject("command_line"), r.commandLine());
        }
        root.put("jvm_deaths", r.deaths());
        root.put("if_valid_throws", r.ifValidThrows());
        root.put("required_acceptances", r.requiredAcceptances());
        root.put("outputs_differ", r.outputsDiffer());
        root.put("seconds", r.elapsed().toMillis() / 1000.0);
        ArrayNode findings = root.putArray("findings");
        for (BakedPlanFuzz.Finding f : r.findings()) {
            ObjectNode o = findings.addObject();
            o.put("file", f.file().toString());
            o.put("edit", f.edit());
            o.put("expected", f.expect().name().toLowerCase());
            o.put("path", f.path());
            o.put("outcome", f.outcome().name().toLowerCase());
            o.put("stage", f.stage());
            o.put("detail", f.detail());
        }
        return root;
    }


    private void print(PrintWriter out, BakedPlanFuzz.Report r) {
        out.printf("%d tampered models in %s: %d to be refused, %d to be accepted, %d either way%n", r.files(),
                this.out, r.expected().getOrDefault(Expect.REFUSED, 0), r.expected().getOrDefault(Expect.ACCEPTED, 0),
                r.expected().getOrDefault(Expect.EITHER, 0));
        r.skipped().forEach((model, why) -> out.println("not baked: " + model + ": " + why));
        TextTable table = commandLine ? new TextTable("outcome", "sessions", "command line")
                : new TextTable("outcome", "sessions");
        for (Outcome outcome : Outcome.values()) {
            if (commandLine) {
                table.add(outcome.name().toLowerCase(), r.sessions().getOrDefault(outcome, 0),
                        r.commandLine().getOrDefault(outcome, 0));
            } else {
                table.add(outcome.name().toLowerCase(), r.sessions().getOrDefault(outcome, 0));
            }
        }
        table.print(out);
        out.printf("JVM deaths %d, IF_VALID throws %d, REQUIRED acceptances of a wrong plan %d, outputs that "
                + "differ %d; %.1f s%n", r.deaths(), r.ifValidThrows(), r.requiredAcceptances(), r.outputsDiffer(),
                r.elapsed().toMillis() / 1000.0);
        for (BakedPlanFuzz.Finding f : r.findings()) {
            out.printf("%n%s%n", f.describe());
        }
        out.println(r.findings().isEmpty() ? "no findings" : r.findings().size() + " findings");
    }
}
