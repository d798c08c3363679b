package dev.tflitearena.session;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.TensorAccess;
import dev.tflitearena.bridge.check.ConstantProof;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.handover.ArenaTemplate;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.bridge.sharing.PersistentTensors;
import dev.tflitearena.bridge.sharing.SharedConstants;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.ValidatedPlan;
import dev.tflitearena.plan.baked.BakedEntry;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.BakedPlanner;
import dev.tflitearena.plan.baked.BakedPlans;
import dev.tflitearena.plan.order.MemoryOrder;
import dev.tflitearena.plan.order.Order;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How to build a ready interpreter for one set of input shapes. A Java plan is made once, here, from a probe
 * interpreter prepared natively with those shapes, and every interpreter built after gets its own arena
 * laid out by it: interpreters running at the same time must not share activations. What derives from the
 * model's constants alone they may share: with {@code regions}, each interpreter built warms up once on a
 * private copy of those tensors, then points them into its configuration's shared region, and with XNNPACK
 * its delegate adds its packed weights to the configuration's shared weights cache, or finds them there.
 * A recipe of an {@link ArenaGroup} builds its interpreters on the group's arena instead: one per model,
 * which the models' interpreters share. In the memory order, the order is chosen once, on a probe in the
 * model's order, and every interpreter after (the probes too) runs in it, so that the kernels number their
 * temporaries alike in all of them.
 */
final class InterpreterRecipe {
    private static final Logger LOG = LoggerFactory.getLogger(InterpreterRecipe.class);
    /** The seed of the inputs a sharing interpreter warms up on; any would do, constants ignore them. */
    private static final long WARM_UP_SEED = 0;

    private final NativeModel model;
    private final SessionOptions options;
    private final Map<Integer, int[]> shapes;
    private final SharedRegions regions;
    /** The settings interpreters are built with: with {@code regions}, XNNPACK shares a weights cache. */
    private final InterpreterSettings settings;
    /** Null when the recipe shares nothing. */
    private final SharedConstants shared;
    /** Null in the model's order. */
    private final MemoryOrder.Result order;
    private final Graph graph;
    private final Plan plan;
    /** The plan, validated once for every interpreter the recipe builds outside a group; null without one. */
    private final ArenaTemplate template;
    /** The arena of the recipe's group, which every interpreter it builds runs on; null outside a group. */
    private final JavaArena groupArena;

    private InterpreterRecipe(NativeModel model, SessionOptions options, Map<Integer, int[]> shapes,
                              SharedRegions regions, BakedEntry baked) {
        this.model = model;
        this.options = options;
        this.shapes = shapes;
        this.regions = regions;
        this.settings = regions == null || !options.settings().xnnpack() ? options.settings()
                : options.settings().withSharedWeightsCache(regions.weightsCache(configuration()));
        this.order = options.order() == Order.MEMORY ? memoryOrder() : null;
        SharedConstants region = regions == null ? null : regions.get(configuration(), this::prove);
        this.shared = region == null || region.isEmpty() ? null : region;
        Planner planner = options.javaPlanner();
        Graph probed = null;
        ArenaTemplate fromBaked = null;
        BakedPlanUse use = options.bakedPlan();
        if (use != BakedPlanUse.IGNORED && (baked.present() || use == BakedPlanUse.REQUIRED)) {
            String why = baked.whyNot(NativeRelease.loaded().version(), options.releaseInputs(),
                    options.order().jsonName(), options.xnnpack());
            if (why == null) {
                probed = probedGraph();
                try {
                    fromBaked = bakedTemplate(baked.plan(), probed);
                } catch (InvalidPlanException e) {
                    why = "the validator refused it: " + e.getMessage();
                } catch (NativeException e) {
                    why = "its arenas cannot be allocated: " + e.getMessage();
                }
            }
            if (why != null) {
                notUsed(why, planner);
            }
        }
        if (fromBaked != null) {
            this.graph = probed;
            this.plan = fromBaked.plan();
            this.template = fromBaked;
        } else if (planner == null) {
            this.graph = null;
            this.plan = null;
            this.template = null;
        } else {
            this.graph = probed != null ? probed : probedGraph();
            this.template = ArenaTemplate.of(ValidatedPlan.of(graph, planner.plan(graph), JavaArena.ALIGNMENT));
            this.plan = template.plan();
        }
        this.groupArena = null;
    }

    private InterpreterRecipe(InterpreterRecipe alone, JavaArena groupArena) {
        this.model = alone.model;
        this.options = alone.options;
        this.shapes = alone.shapes;
        this.regions = alone.regions;
        this.settings = alone.settings;
        this.order = alone.order;
        this.shared = alone.shared;
        this.graph = alone.graph;
        this.plan = groupArena.plan();
        this.template = null;
        this.groupArena = groupArena;
    }

    /**
     * The model's own input shapes; {@code regions} null shares nothing. {@code baked}, the model's baked plan,
     * replaces planning as {@link SessionOptions#bakedPlan()} says.
     */
    static InterpreterRecipe of(NativeModel model, SessionOptions options, SharedRegions regions,
                                BakedEntry baked) {
        return new InterpreterRecipe(model, options, Map.of(), regions, baked);
    }

    /**
     * The baked plan fitted to the probed graph and validated, its arenas allocated once to learn that they can
     * be: every session allocates them again.
     */
    private static ArenaTemplate bakedTemplate(BakedPlan baked, Graph probed) {
        ArenaTemplate template = ArenaTemplate.of(ValidatedPlan.of(probed,
                BakedPlans.fitted(new BakedPlanner(baked).plan(probed), probed), JavaArena.ALIGNMENT));
        try (JavaArena trial = template.allocate()) {
            return template;
        }
    }

    /** The graph a Java plan places: a probe prepared natively, snapshot, without what the sessions share. */
    private Graph probedGraph() {
        try (NativeInterpreter probe = resizedInterpreter()) {
            probe.allocateTensors();
            Graph snapshot = shared == null ? probe.snapshot() : shared.withoutSharedTensors(probe.snapshot());
            return snapshot.withReleaseInputs(options.releaseInputs());
        }
    }

    /** A baked plan that cannot serve: refused under {@link BakedPlanUse#REQUIRED}, else logged once. */
    private void notUsed(String why, Planner planner) {
        if (options.bakedPlan() == BakedPlanUse.REQUIRED) {
            throw new IllegalStateException(model.path() + ": the session requires the model's baked plan, which "
                    + "cannot serve it: " + why);
        }
        LOG.info("{}: baked plan not used, planning with {}: {}", model.path(),
                planner == null ? SessionOptions.NATIVE : planner.name(), why);
    }

    /** The same recipe on an arena of a group, whose plan the group made from this recipe's {@link #graph()}. */
    InterpreterRecipe inGroup(JavaArena arena) {
        return new InterpreterRecipe(this, arena);
    }

    /** The graph the Java plan is made for; null without a Java planner. */
    Graph graph() {
        return graph;
    }

    /**
     * Whether the plan frees the graph input after its last consumer, so that by the end of a run its bytes may
     * hold other tensors ({@link SessionOptions#releaseInputs()}).
     */
    boolean releases(int input) {
        if (graph == null || !graph.options().releaseInputs()) {
            return false;
        }
        Subgraph primary = graph.subgraphs().get(0);
        return Lifetimes.of(primary, graph.options()).deallocNode(primary.inputs()[input]) != Lifetimes.NOT_ASSIGNED;
    }

    /** The same recipe with one input reshaped, and re-planned: a baked plan is for the model's own shapes. */
    InterpreterRecipe resized(int input, int[] shape) {
        Map<Integer, int[]> next = new TreeMap<>(shapes);
        next.put(input, shape.clone());
        return new InterpreterRecipe(model, options, next, regions, BakedEntry.NONE);
    }

    /**
     * An interpreter with its tensors allocated, on the Java plan if there is one; a sharing one has been
     * invoked once, and its constant-derived tensors are in the shared region.
     */
    NativeInterpreter build() {
        NativeInterpreter interpreter = resizedInterpreter();
        try {
            if (plan == null && shared == null) {
                interpreter.allocateTensors();
            } else if (plan == null) {
                interpreter.allocateTensors(null, shared);
            } else if (groupArena != null) {
                interpreter.allocateTensors(groupArena, shared);
            } else {
                // The interpreter keeps the arena alive; this handle is only needed for the handover.
                try (JavaArena arena = template.allocate()) {
                    interpreter.allocateTensors(arena, shared);
                }
            }
            if (shared != null) {
                SeededInputs.feed(WARM_UP_SEED, interpreter);
                interpreter.invoke();
                interpreter.shareConstants();
            }
            return interpreter;
        } catch (RuntimeException e) {
            interpreter.close();
            throw e;
        }
    }

    /**
     * The rw arena bytes of an interpreter this recipe built. With a Java plan TFLite's own arena holds only
     * what the plan left to it, so the plan's size is the one that counts.
     */
    long arenaBytes(NativeInterpreter built) {
        return plan == null ? built.memoryInfo().arenaBytes()
                : plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum();
    }

    /** The persistent arena bytes an interpreter this recipe built owns: the shared tensors are not among them. */
    long persistentBytes(NativeInterpreter built) {
        return plan == null ? built.memoryInfo().persistentBytes()
                : plan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum();
    }

    /**
     * What decides which tensors the kernels persist and what they compute: the interpreter's settings and
     * the input shapes. The planner does not: it only places tensors.
     */
    private List<Object> configuration() {
        Map<Integer, List<Integer>> inputShapes = new TreeMap<>();
        shapes.forEach((input, shape) -> inputShapes.put(input, Arrays.stream(shape).boxed().toList()));
        return List.of(options.settings(), inputShapes, options.order());
    }

    /**
     * The persistent tensors an interpreter this recipe builds owns, with why each is not shared: read from a
     * probe TFLite prepares and invokes once, so that what it prepares during invoke (after a dynamic-shape op,
     * CALL_ONCE's subgraph) is marked too.
     */
    List<PersistentTensors.Owned> persistentTensors() {
        try (NativeInterpreter probe = resizedInterpreter()) {
            probe.allocateTensors();
            SeededInputs.feed(WARM_UP_SEED, probe);
            probe.invoke();
            return PersistentTensors.of(probe.snapshot(), shared, regions != null);
        }
    }

    /** Two interpreters allocated by TFLite, invoked on different inputs: what proves a tensor shared. */
    private SharedConstants prove() {
        try (NativeInterpreter first = resizedInterpreter(); NativeInterpreter second = resizedInterpreter()) {
            first.allocateTensors();
            second.allocateTensors();
            return ConstantProof.prove(first, second);
        }
    }

    /** The order of least bound, chosen on a probe prepared in the model's order. */
    private MemoryOrder.Result memoryOrder() {
        try (NativeInterpreter probe = resizedInterpreter(null)) {
            probe.allocateTensors();
            return MemoryOrder.of(probe.snapshot().withReleaseInputs(options.releaseInputs()));
        }
    }

    private NativeInterpreter resizedInterpreter() {
        return resizedInterpreter(order);
    }

    /** A fresh interpreter with the recipe's input shapes, running {@code inOrder} (the model's order if null). */
    private NativeInterpreter resizedInterpreter(MemoryOrder.Result inOrder) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, settings);
        try {
            shapes.forEach((input, shape) -> TensorAccess.resizeInput(interpreter, input, shape));
            if (inOrder != null) {
                interpreter.setNodeOrder(inOrder.order());
            }
            return interpreter;
        } catch (RuntimeException e) {
            interpreter.close();
            throw e;
        }
    }
}
