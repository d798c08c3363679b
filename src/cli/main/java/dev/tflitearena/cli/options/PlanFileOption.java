package dev.tflitearena.cli.options;

import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.baked.BakedEntry;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.BakedPlanner;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.place.ImportedPlan;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code --plan FILE}: offsets an outside planner chose, used instead of a Java planner's. */
public final class PlanFileOption {
    @Option(names = "--plan", paramLabel = "FILE", description = "Use the offsets in FILE instead of a planner's: "
            + "a .csv in MiniMalloc's output format (" + ImportedPlan.CSV_HEADER + "; the ids and intervals of "
            + "plan --export-buffers) for the subgraph of --plan-subgraph, the other subgraphs planned as TFLite "
            + "does; a .json as plan --json writes it, for every subgraph; or a .tflite that 'bake --for tflite' "
            + "wrote, its baked plan (planner name '" + BakedPlanner.NAME + "'), refused unless it was made for this "
            + "model, release and options (see --ignore-fingerprint). The plan is checked against the "
            + "model first and refused, naming the tensors, if it does not fit.")
    public Path file;

    @Option(names = "--ignore-fingerprint", description = "With a baked --plan: use it even if it was made for "
            + "another model, TFLite release or options; the validator still checks it against the model.")
    boolean ignoreFingerprint;

    @Option(names = "--plan-subgraph", paramLabel = "N",
            description = "The subgraph a MiniMalloc --plan places (default: 0).")
    Integer subgraph;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Whether --plan was given; refuses --plan-subgraph without it, and --plan beside --planner. */
    public boolean given() {
        if (file == null && subgraph != null) {
            throw new IllegalArgumentException("--plan-subgraph is for --plan");
        }
        if (file == null && ignoreFingerprint) {
            throw new IllegalArgumentException("--ignore-fingerprint is for a baked --plan (.tflite)");
        }
        if (file != null && command.commandLine().getParseResult().hasMatchedOption(ModelPlanningOptions.PLANNER)) {
            throw new IllegalArgumentException("--plan and --planner both say where the tensors go: give one");
        }
        return file != null;
    }

    /**
     * The plan of --plan for {@code model}; null when it was not given. A baked plan must have been made for the
     * model, this release and the options given, as a session checks, unless --ignore-fingerprint.
     */
    public Planner read(Path model, boolean releaseInputs, Order order, boolean xnnpack) throws IOException {
        String name = file == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean csv = name.endsWith(".csv");
        if (ignoreFingerprint && !name.endsWith(".tflite")) {
            throw new IllegalArgumentException("--ignore-fingerprint is for a baked --plan (.tflite); " + file
                    + " carries no fingerprint");
        }
        if (name.endsWith(".tflite")) {
            if (subgraph != null) {
                throw new IllegalArgumentException("--plan-subgraph is for a --plan in MiniMalloc's format (.csv): a "
                        + "baked plan places every subgraph");
            }
            return new BakedPlanner(baked(model, releaseInputs, order, xnnpack));
        }
        if (subgraph != null && !csv) {
            throw new IllegalArgumentException("--plan-subgraph is for a --plan in MiniMalloc's format (.csv): a "
                    + "plan JSON places every subgraph");
        }
        return file == null ? null : ImportedPlan.read(file, subgraph == null ? 0 : subgraph);
    }

    private BakedPlan baked(Path model, boolean releaseInputs, Order order, boolean xnnpack) throws IOException {
        BakedEntry entry = BakedEntry.of(ByteBuffer.wrap(Files.readAllBytes(file)), file.toString());
        if (!entry.present()) {
            throw new IllegalArgumentException("--plan " + file + ": the model holds no baked plan (metadata '"
                    + BakedPlan.NAME + "'); 'bake --for tflite' writes one");
        }
        if (entry.plan() == null) {
            throw new IllegalArgumentException("--plan " + file + ": " + entry.unreadable());
        }
        if (ignoreFingerprint) {
            return entry.plan();
        }
        // The model run may be the baked file or the original: either ends with the bytes the plan was made from.
        boolean sameModel = entry.plan().fingerprint().madeFrom(ByteBuffer.wrap(Files.readAllBytes(model)));
        List<String> differences = entry.plan().fingerprint().differences(sameModel,
                NativeRelease.loaded().version(), releaseInputs, order.jsonName(), xnnpack);
        if (!differences.isEmpty()) {
            throw new IllegalArgumentException("--plan " + file + ": its baked plan is not for " + model + " as run "
                    + "here: " + String.join("; ", differences).replace("the model is not", model + " is not")
                    + " (--ignore-fingerprint uses it all the same)");
        }
        return entry.plan();
    }
}
