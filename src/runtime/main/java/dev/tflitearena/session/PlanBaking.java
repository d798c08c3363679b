package dev.tflitearena.session;

import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.OrderedProbe;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.ValidatedPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.PlanFingerprint;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.nio.ByteBuffer;

/**
 * Bakes a plan under TFLite's rules into a model, for the sessions of the options given: the model is prepared
 * as such a session prepares it (XNNPACK, threads, the node order, graph inputs released or kept), planned by
 * the planner, validated, and written as the entry {@value BakedPlan#NAME} with its fingerprint. Sessions of the
 * baked model then run on the plan instead of planning ({@link SessionOptions#bakedPlan()}).
 */
public final class PlanBaking {
    private PlanBaking() {
    }

    /**
     * @param model            the baked model's bytes
     * @param plan             the plan it carries
     * @param graph            the prepared graph the plan places
     * @param nativeArenaBytes TFLite's own rw arena for the same interpreter
     */
    public record Baked(byte[] model, BakedPlan plan, Graph graph, long nativeArenaBytes) {
    }

    /**
     * The model with the plan baked in; {@code replace} writes over a baked plan it has, which is refused
     * otherwise. {@code name} stands for the model in messages.
     */
    public static Baked forTflite(byte[] model, String name, SessionOptions options, Planner planner,
                                  boolean replace) {
        Graph graph;
        long nativeArena;
        try (NativeModel loaded = NativeModel.fromBytes(model, name)) {
            try (NativeInterpreter interpreter = NativeInterpreter.build(loaded, options.settings())) {
                interpreter.allocateTensors();
                nativeArena = interpreter.memoryInfo().arenaBytes();
                graph = interpreter.snapshot().withReleaseInputs(options.releaseInputs());
            }
            if (options.order() == Order.MEMORY) {
                // As a session does: the order chosen on the model's order, then a probe prepared in it.
                try (NativeInterpreter ordered = NativeInterpreter.build(loaded, options.settings())) {
                    graph = OrderedProbe.snapshot(ordered, MemoryOrder.of(graph))
                            .withReleaseInputs(options.releaseInputs());
                }
            }
        }
        if (TflitePlanner.hasComputedShapeReshape(graph)) {
            throw new IllegalArgumentException(name + ": nothing to bake: a Java plan cannot drive a graph with a "
                    + "RESHAPE whose new shape an op computes (TFLite prepares the nodes after it during invoke)");
        }
        Plan plan = planner.plan(graph);
        ValidatedPlan.of(graph, plan, JavaArena.ALIGNMENT);
        PlanFingerprint fingerprint = new PlanFingerprint(model.length, PlanFingerprint.sha256(ByteBuffer.wrap(model)),
                NativeRelease.loaded().version(), options.releaseInputs(), options.order().jsonName(),
                options.xnnpack());
        BakedPlan baked = new BakedPlan(fingerprint, plan);
        return new Baked(MetadataWriter.put(model, BakedPlan.NAME, baked.encode(), replace), baked, graph,
                nativeArena);
    }
}
