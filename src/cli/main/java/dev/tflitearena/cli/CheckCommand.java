package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.plan.baked.BakedEntry;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.PlanFingerprint;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.tflm.TflmAllocations;
import dev.tflitearena.session.BakedPlanUse;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Validates every plan the model carries, before it is flashed or served: '" + BakedPlan.NAME
                + "' (bake --for tflite) as a session requiring it would, against the interpreter this release "
                + "prepares with the options the plan was made for; '" + OfflineMemoryAllocation.NAME + "' (bake "
                + "--for tflm; TFLite Micro checks almost nothing of it) against TFLM's lifetimes: its version, "
                + "subgraph and offset counts, each offset -1 or a multiple of --alignment, no two tensors live at "
                + "once sharing a byte, and an extent no larger than every buffer end to end. Exit status 0 when "
                + "every plan holds (or the model carries none), 1 naming the first problem.")
final class CheckCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--alignment", defaultValue = "" + TflmAllocations.DEFAULT_ALIGNMENT, paramLabel = "N",
            description = "TFLM's buffer alignment, MicroArenaBufferAlignment() (default: ${DEFAULT-VALUE}).")
    int alignment;

    @Mixin
    Output output;

    /** One plan's verdict: what it is when it holds, the first problem when not. */
    record Verdict(String entry, String problem, Map<String, Object> figures, String summary) {
        boolean holds() {
            return problem == null;
        }
    }

    @Override
    public Integer call() throws IOException {
        if (alignment < 1) {
            throw new IllegalArgumentException("--alignment must be at least 1, got " + alignment);
        }
        byte[] bytes = Files.readAllBytes(model);
        TfliteModel read = TfliteFile.read(bytes, model.toString());
        List<Verdict> verdicts = new ArrayList<>();
        if (read.metadata().stream().anyMatch(m -> m.name().equals(BakedPlan.NAME))) {
            verdicts.add(baked(bytes));
        }
        if (read.metadata().stream().anyMatch(m -> m.name().equals(OfflineMemoryAllocation.NAME))) {
            verdicts.add(offline(read));
        }
        output.print(() -> json(verdicts), out -> print(out, verdicts));
        return verdicts.stream().allMatch(Verdict::holds) ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    /** The plan for TFLite, put to a session that requires it, of the options its fingerprint names. */
    private Verdict baked(byte[] bytes) {
        BakedEntry entry = BakedEntry.of(ByteBuffer.wrap(bytes), model.toString());
        if (entry.plan() == null) {
            return problem(BakedPlan.NAME, "it cannot be read: " + entry.unreadable());
        }
        PlanFingerprint f = entry.plan().fingerprint();
        SessionOptions options;
        try {
            options = SessionOptions.DEFAULT.withPlanner("tflite").withXnnpack(f.xnnpack())
                    .withOrder(Order.byName(f.order())).withReleaseInputs(f.releaseInputs())
                    .withBakedPlan(BakedPlanUse.REQUIRED);
        } catch (IllegalArgumentException e) {
            return problem(BakedPlan.NAME, "its fingerprint names options no session takes: " + e.getMessage());
        }
        try (TfLiteModel loaded = TfLiteModel.load(bytes); Session session = loaded.newSession(options)) {
            String settings = "TFLite " + f.release() + ", " + f.order() + " order" + (f.releaseInputs()
                    ? ", graph inputs released" : "") + (f.xnnpack() ? ", XNNPACK" : "");
            int subgraphs = entry.plan().plan().subgraphs().size();
            return new Verdict(BakedPlan.NAME, null, Map.of("release", f.release(), "order", f.order(),
                    "release_inputs", f.releaseInputs(), "xnnpack", f.xnnpack(), "subgraphs", subgraphs,
                    "arena_bytes", session.arenaBytes(), "persistent_bytes", session.persistentArenaBytes()),
                    String.format("holds on this release's interpreter (%s): %d subgraph%s, rw arenas %,d bytes, "
                            + "persistent %,d", settings, subgraphs, subgraphs == 1 ? "" : "s", session.arenaBytes(),
                            session.persistentArenaBytes()));
        } catch (IllegalStateException e) {
            String message = e.getMessage();
            String cause = "cannot serve it: ";
            return problem(BakedPlan.NAME, message.contains(cause)
                    ? message.substring(message.indexOf(cause) + cause.length()) : message);
        }
    }

    /** TFLM's offline plan against TFLM's lifetimes, and the arena TFLM's greedy planner makes around it. */
    private Verdict offline(TfliteModel read) {
        TflmAllocations allocations = TflmAllocations.of(read, alignment);
        Map<Integer, Long> kept;
        try {
            OfflineMemoryAllocation plan = OfflineMemoryAllocation.of(read).orElseThrow();
            allocations.check(plan);
            kept = allocations.offline(plan);
        } catch (IllegalArgumentException e) {
            return problem(OfflineMemoryAllocation.NAME, e.getMessage().replaceFirst("^metadata '"
                    + OfflineMemoryAllocation.NAME + "'( \\(buffer \\d+\\))?: ", ""));
        }
        long extent = 0;
        for (TflmAllocations.Entry e : allocations.entries()) {
            Long offset = kept.get(e.id());
            extent = offset == null ? extent : Math.max(extent, offset + e.size());
        }
        BufferSet buffers = allocations.buffers();
        long head = buffers.arenaBytes(new TflmGreedyPlacer(kept).place(buffers).offsets());
        int offsets = allocations.entries().size();
        return new Verdict(OfflineMemoryAllocation.NAME, null, Map.of("alignment", alignment, "offsets", offsets,
                "tensors_baked", kept.size(), "extent_bytes", extent, "arena_head_bytes", head),
                String.format("holds for TFLM (alignment %d): %d offsets, %d tensors baked, extent %,d bytes; "
                        + "with the rest placed around them by TFLM's greedy planner, the arena's head is %,d bytes",
                        alignment, offsets, kept.size(), extent, head));
    }

    private static Verdict problem(String entry, String problem) {
        return new Verdict(entry, problem, Map.of(), null);
    }

    private ObjectNode json(List<Verdict> verdicts) {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("valid", verdicts.stream().allMatch(Verdict::holds));
        ArrayNode plans = root.putArray("plans");
        for (Verdict v : verdicts) {
            ObjectNode plan = plans.addObject();
            plan.put("entry", v.entry());
            plan.put("valid", v.holds());
            if (!v.holds()) {
                plan.put("problem", v.problem());
            }
            v.figures().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(f -> plan.putPOJO(f.getKey(), f.getValue()));
        }
        return root;
    }

    private void print(PrintWriter out, List<Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            out.println(model + ": carries no plan ('" + BakedPlan.NAME + "' or '" + OfflineMemoryAllocation.NAME
                    + "'): nothing to check");
            return;
        }
        for (Verdict v : verdicts) {
            out.printf("%s: %s %s%n", model, v.entry(), v.holds() ? v.summary() : "DOES NOT HOLD: " + v.problem());
        }
    }
}
