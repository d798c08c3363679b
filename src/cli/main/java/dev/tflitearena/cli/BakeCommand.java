package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.cli.options.NativeOptions;
import dev.tflitearena.cli.options.OrderOption;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.ReleaseInputsOption;
import dev.tflitearena.cli.options.TimeLimitOption;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.PlanFingerprint;
import dev.tflitearena.plan.catalog.PlannerTable;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.plan.tflm.TflmAllocations;
import dev.tflitearena.plan.tflm.TflmOfflinePlan;
import dev.tflitearena.session.PlanBaking;
import dev.tflitearena.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "bake", mixinStandardHelpOptions = true,
        description = "Plans a model ahead of time and writes the plan into a copy of it; the rest of the model is "
                + "unchanged, byte for byte. --for tflm: TFLite Micro's rules (its own tensor lifetimes, one "
                + "timeline over every subgraph, sizes rounded up to --alignment), written as the "
                + "OfflineMemoryAllocation metadata that TFLM's allocator reads: an offset per tensor of every "
                + "subgraph, -1 for a tensor TFLM plans itself; prints the baked arena, what TFLM's own greedy "
                + "planner would need, the lower bound, and the tensors left to TFLM with the reason. --for tflite: "
                + "TFLite's rules on the interpreter this release prepares (--xnnpack, --release-inputs and --order "
                + "as given), written as the project's own entry '" + BakedPlan.NAME + "' with what it is valid for; "
                + "sessions and pools of the baked model run on it instead of planning.")
final class BakeCommand implements Callable<Integer> {
    /** The runtimes a plan can be baked for. */
    enum Target { tflm, tflite }

    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--for", required = true, paramLabel = "RUNTIME",
            description = "The runtime whose rules the plan follows: ${COMPLETION-CANDIDATES}.")
    Target target;

    @Option(names = "--planner", defaultValue = OptimalPlacer.NAME, paramLabel = "NAME",
            description = "The placement strategy (default: ${DEFAULT-VALUE}, the exact search: proven optimal when "
                    + "it finishes within --time-limit; for TFLM started from TFLM's greedy plan, so never worse): "
                    + "any planner of 'plan --planner'.")
    String planner;

    @Mixin
    TimeLimitOption timeLimit;

    @Option(names = "--alignment", defaultValue = "" + TflmAllocations.DEFAULT_ALIGNMENT, paramLabel = "N",
            description = "TFLM's buffer alignment, MicroArenaBufferAlignment() (default: ${DEFAULT-VALUE}): every "
                    + "size is rounded up to it and every offset is a multiple of it.")
    int alignment;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "OUT.tflite",
            description = "The baked model to write; its directory must exist.")
    Path out;

    @Option(names = "--replace", description = "Replace a plan for the same runtime the model has already; without "
            + "it such a model is refused.")
    boolean replace;

    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    ReleaseInputsOption releaseInputs;

    @Mixin
    OrderOption order;

    @Mixin
    ProgressOptions progress;

    @Mixin
    Output output;

    @Spec
    CommandSpec cli;

    @Override
    public Integer call() throws IOException {
        WritablePath.checkFile(out);
        byte[] bytes = Files.readAllBytes(model);
        TfliteModel read = TfliteFile.read(bytes, model.toString());
        String entry = target == Target.tflm ? OfflineMemoryAllocation.NAME : BakedPlan.NAME;
        if (!replace && read.metadata().stream().anyMatch(m -> m.name().equals(entry))) {
            throw new IllegalArgumentException(model + " holds " + (target == Target.tflm ? "an offline plan"
                    : "a baked plan") + " already (metadata '" + entry + "'); --replace writes a new one over it");
        }
        return target == Target.tflm ? bakeForTflm(bytes, read) : bakeForTflite(bytes);
    }

    private int bakeForTflm(byte[] bytes, TfliteModel read) {
        if (nativeOptions.xnnpack.on || nativeOptions.preserveAllTensors || nativeOptions.release != null
                || releaseInputs.on || order.value() != Order.MODEL) {
            throw new IllegalArgumentException("--for tflm follows TFLM's rules as they are: --xnnpack, "
                    + "--preserve-all-tensors, --tflite-release, --release-inputs and --order are for --for tflite");
        }
        Placer placer = Planners.placerByName(planner, timeLimit.duration());
        TflmOfflinePlan plan;
        String replaced;
        try (ProgressDisplay display = progress.open()) {
            display.step("TFLM's lifetimes");
            TflmAllocations allocations = TflmAllocations.of(read, alignment);
            replaced = problemOfReplaced(allocations);
            display.step("placing " + allocations.buffers().buffers().size() + " buffers with " + placer.name()
                    + (placer instanceof OptimalPlacer ? " (at most " + timeLimit.seconds + " s)"
                    : ""));
            plan = TflmOfflinePlan.of(allocations, placer);
            display.step("writing " + out);
            byte[] baked = MetadataWriter.put(bytes, OfflineMemoryAllocation.NAME, plan.metadata(), replace);
            WritablePath.write(out, baked);
        }
        output.print(() -> {
            ObjectNode root = toJson(plan);
            if (replaced != null) {
                root.put("replaced_plan_problem", replaced);
            }
            return root;
        }, o -> {
            printText(o, plan);
            if (replaced != null) {
                o.println("  the offline plan replaced did not hold: " + replaced);
            }
        });
        return 0;
    }

    /** What was wrong with the offline plan the model held, as 'check' finds it; null when it held or had none. */
    private static String problemOfReplaced(TflmAllocations allocations) {
        try {
            OfflineMemoryAllocation.of(allocations.model()).ifPresent(allocations::check);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private int bakeForTflite(byte[] bytes) {
        if (nativeOptions.preserveAllTensors || nativeOptions.release != null) {
            throw new IllegalArgumentException("--for tflite bakes a plan for sessions, which run this release "
                    + "without preserve_all_tensors: not with --preserve-all-tensors or --tflite-release");
        }
        if (cli.commandLine().getParseResult().hasMatchedOption("--alignment")) {
            throw new IllegalArgumentException("--alignment is TFLM's; TFLite's arenas align to "
                    + JavaArena.ALIGNMENT + " bytes");
        }
        SessionOptions options = SessionOptions.DEFAULT.withXnnpack(nativeOptions.xnnpack.on).withOrder(order.value());
        Integer threads = nativeOptions.xnnpack.threads();
        options = threads == null ? options : options.withXnnpackThreads(threads);
        // The session options refuse the memory order with XNNPACK, naming why.
        options = options.withPlanner(planner).withReleaseInputs(releaseInputs.on);
        Planner named = Planners.byName(planner, timeLimit.duration());
        PlanBaking.Baked made;
        try (ProgressDisplay display = progress.open()) {
            display.step("preparing " + model + " natively and planning with " + named.name());
            made = PlanBaking.forTflite(bytes, model.toString(), options, named, replace);
            display.step("writing " + out);
            WritablePath.write(out, made.model());
        }
        output.print(() -> toJson(made), o -> printText(o, made));
        return 0;
    }

    private ObjectNode toJson(PlanBaking.Baked made) {
        PlanFingerprint f = made.plan().fingerprint();
        Plan plan = made.plan().plan();
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("out", out.toString());
        root.put("for", target.name());
        root.put("planner", plan.planner());
        root.put("release", f.release());
        root.put("release_inputs", f.releaseInputs());
        root.put("order", f.order());
        root.put("xnnpack", f.xnnpack());
        root.put("arena_bytes", plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum());
        root.put("persistent_bytes", plan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum());
        root.put("native_arena_bytes", made.nativeArenaBytes());
        root.put("lower_bound_bytes", PlannerTable.lowerBound(made.graph()));
        root.put("subgraphs_planned", plan.subgraphs().size());
        root.put("tensors_baked", tensorsBaked(plan));
        return root;
    }

    private static long tensorsBaked(Plan plan) {
        return plan.subgraphs().stream().flatMap(sp -> sp.placements().stream()).filter(p -> p.hasMemory()).count();
    }

    private void printText(PrintWriter o, PlanBaking.Baked made) {
        PlanFingerprint f = made.plan().fingerprint();
        Plan plan = made.plan().plan();
        long arena = plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum();
        long bound = PlannerTable.lowerBound(made.graph());
        o.printf("%s -> %s: a plan for TFLite %s (planner %s; %s order%s%s)%n", model, out, f.release(), plan.planner(),
                f.order(), f.releaseInputs() ? ", " + PlanReport.RELEASE_INPUTS : "",
                f.xnnpack() ? ", XNNPACK" : "");
        o.printf("  rw arenas          %,d bytes over %d subgraphs (TFLite's own plan: %,d)%n", arena,
                plan.subgraphs().size(), made.nativeArenaBytes());
        o.printf("  lower bound        %,d bytes (gap %s)%n", bound, PlanReport.percent(LowerBound.gap(arena, bound)));
        o.printf("  persistent arenas  %,d bytes%n", plan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes)
                .sum());
        o.printf("  tensors            %d baked%n", tensorsBaked(plan));
        o.println("  a session of the baked model runs on this plan when its release and options match; else it plans"
                + " afresh and logs why");
    }

    private ObjectNode toJson(TflmOfflinePlan plan) {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("out", out.toString());
        root.put("for", target.name());
        root.put("planner", plan.planner());
        root.put("alignment", plan.allocations().alignment());
        root.put("arena_bytes", plan.arenaBytes());
        root.put("tflm_greedy_arena_bytes", plan.greedyArenaBytes());
        root.put("lower_bound_bytes", plan.lowerBoundBytes());
        root.put("optimal_proven", plan.provenOptimal());
        root.put("tensors_baked", plan.tensorsBaked());
        root.put("tensors_constant", plan.tensorsConstant());
        ArrayNode online = root.putArray("tensors_online");
        for (TflmAllocations.Entry e : plan.tensorsOnline()) {
            ObjectNode t = online.addObject();
            t.put("subgraph", e.subgraph());
            t.put("tensor", e.tensor());
            t.put("name", e.name());
            t.put("bytes", e.bytes());
            t.put("why", e.online().why());
        }
        return root;
    }

    private void printText(PrintWriter o, TflmOfflinePlan plan) {
        o.printf("%s -> %s: a plan for TFLM (alignment %d, planner %s)%n", model, out,
                plan.allocations().alignment(), plan.planner());
        o.printf("  baked arena        %,d bytes%s%n", plan.arenaBytes(), plan.provenOptimal() ? " (optimal)" : "");
        o.printf("  TFLM's greedy plan %,d bytes (the baked arena is %s of it)%n", plan.greedyArenaBytes(),
                String.format(Locale.ROOT, "%.1f%%", 100.0 * plan.arenaBytes() / Math.max(plan.greedyArenaBytes(), 1)));
        o.printf("  lower bound        %,d bytes (gap %s)%n", plan.lowerBoundBytes(),
                PlanReport.percent(LowerBound.gap(plan.arenaBytes(), plan.lowerBoundBytes())));
        o.printf("  tensors            %d baked, %d constant, %d left to TFLM%n", plan.tensorsBaked(),
                plan.tensorsConstant(), plan.tensorsOnline().size());
        for (TflmAllocations.Entry e : plan.tensorsOnline()) {
            o.printf("    subgraph %d tensor %d '%s' (%,d bytes): %s%n", e.subgraph(), e.tensor(), e.name(), e.bytes(),
                    e.online().why());
        }
        o.println("  kernels' scratch buffers are requested when TFLM prepares the model: its greedy planner "
                + "places them around the baked offsets");
    }
}
