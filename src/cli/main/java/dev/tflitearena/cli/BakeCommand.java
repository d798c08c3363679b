package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.plan.tflm.TflmAllocations;
import dev.tflitearena.plan.tflm.TflmOfflinePlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "bake", mixinStandardHelpOptions = true,
        description = "Plans a model ahead of time and writes the plan into a copy of it. --for tflm: TFLite Micro's "
                + "rules (its own tensor lifetimes, one timeline over every subgraph, sizes rounded up to "
                + "--alignment), written as the OfflineMemoryAllocation metadata that TFLM's allocator reads: an "
                + "offset per tensor of every subgraph, -1 for a tensor TFLM plans itself. The rest of the model "
                + "is unchanged, byte for byte. Prints the baked arena, what TFLM's own greedy planner would need, "
                + "the lower bound, and the tensors left to TFLM with the reason.")
final class BakeCommand implements Callable<Integer> {
    /** The runtimes a plan can be baked for. */
    enum Target { tflm }

    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--for", required = true, paramLabel = "RUNTIME",
            description = "The runtime whose rules the plan follows: ${COMPLETION-CANDIDATES}.")
    Target target;

    @Option(names = "--planner", defaultValue = OptimalPlacer.NAME, paramLabel = "NAME",
            description = "The placement strategy (default: ${DEFAULT-VALUE}, the exact search started from TFLM's "
                    + "greedy plan: proven optimal when it finishes within --time-limit, never worse than TFLM's "
                    + "greedy planner): any placer of 'plan --planner'.")
    String planner;

    @Option(names = "--time-limit", defaultValue = "10", paramLabel = "SECONDS",
            description = "How long 'optimal' may search (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--alignment", defaultValue = "" + TflmAllocations.DEFAULT_ALIGNMENT, paramLabel = "N",
            description = "TFLM's buffer alignment, MicroArenaBufferAlignment() (default: ${DEFAULT-VALUE}): every "
                    + "size is rounded up to it and every offset is a multiple of it.")
    int alignment;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "OUT.tflite",
            description = "The baked model to write; its directory must exist.")
    Path out;

    @Option(names = "--replace", description = "Replace an offline plan the model has already; without it such a "
            + "model is refused.")
    boolean replace;

    @Mixin
    ProgressOptions progress;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        WritablePath.checkFile(out);
        Placer placer = Planners.placerByName(planner, PlanCommand.seconds(timeLimit));
        byte[] bytes = Files.readAllBytes(model);
        TfliteModel read = TfliteFile.read(bytes, model.toString());
        if (!replace && read.metadata().stream().anyMatch(m -> m.name().equals(OfflineMemoryAllocation.NAME))) {
            throw new IllegalArgumentException(model + " holds an offline plan already (metadata '"
                    + OfflineMemoryAllocation.NAME + "'); --replace writes a new one over it");
        }
        TflmOfflinePlan plan;
        try (ProgressDisplay display = progress.open()) {
            display.step("TFLM's lifetimes");
            TflmAllocations allocations = TflmAllocations.of(read, alignment);
            display.step("placing " + allocations.buffers().buffers().size() + " buffers with " + placer.name()
                    + (placer instanceof OptimalPlacer ? " (at most " + timeLimit + " s)"
                    : ""));
            plan = TflmOfflinePlan.of(allocations, placer);
            display.step("writing " + out);
            byte[] baked = MetadataWriter.put(bytes, OfflineMemoryAllocation.NAME, plan.metadata(), replace);
            WritablePath.write(out, baked);
        }
        output.print(() -> toJson(plan), o -> printText(o, plan));
        return 0;
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
                PlanCommand.percent(LowerBound.gap(plan.arenaBytes(), plan.lowerBoundBytes())));
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
