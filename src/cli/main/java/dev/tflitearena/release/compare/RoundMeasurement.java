package dev.tflitearena.release.compare;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.MemoryInfo;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.nativelayer.OpProfiler;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import dev.tflitearena.progress.Progress;
import dev.tflitearena.release.compare.RoundReport.ModelRound;
import dev.tflitearena.release.compare.RoundReport.NodeTime;
import dev.tflitearena.release.compare.RoundReport.TensorPlacement;
import dev.tflitearena.session.RunProfile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One round of one side of an interleaved comparison, in the JVM that loaded that side's TFLite: each model
 * timed in turn on TFLite's builtin kernels without XNNPACK (the settings of the release reports), every metric
 * the fastest of its samples ({@link SampleTime}).
 */
public final class RoundMeasurement {
    private static final long SEED = 1;
    /** Room for the invocations of one profiled invoke of the largest real model, WHILE bodies included. */
    private static final int PROFILE_CAPACITY = 1 << 14;

    private final int warmup;
    private final int samples;
    private final Set<Metric> metrics;

    public RoundMeasurement(int warmup, int samples, Set<Metric> metrics) {
        if (warmup < 0 || samples < 1) {
            throw new IllegalArgumentException("need warmup >= 0 and samples >= 1, got " + warmup + " and "
                    + samples);
        }
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("no metric to measure; the metrics: " + Metric.names());
        }
        this.warmup = warmup;
        this.samples = samples;
        this.metrics = Set.copyOf(metrics);
    }

    /**
     * Times the models, each an item of {@code progress}.
     *
     * @param otherRules when not null, the plans are read too, and the Java plan is made under this release's rules
     */
    public RoundReport measure(List<Path> models, TfliteRelease otherRules, Progress progress) throws Exception {
        List<Loaded> loaded = new ArrayList<>();
        try {
            for (Path file : models) {
                progress.advance(loaded.size(), models.size(), "loading " + file.getFileName());
                loaded.add(Loaded.of(file));
            }
            Map<Loaded, Double> invokeMs = metrics.contains(Metric.INVOKE) ? invokeTimes(loaded, progress) : Map.of();
            List<ModelRound> rounds = new ArrayList<>();
            for (Loaded model : loaded) {
                progress.advance(rounds.size(), loaded.size(), model.name());
                rounds.add(model.error() != null ? ModelRound.failed(model.name(), model.error())
                        : measure(model, invokeMs.get(model), otherRules));
            }
            progress.advance(models.size(), models.size(), "done");
            return new RoundReport(RoundReport.FORMAT, RoundReport.VERSION, NativeRelease.version(),
                    NativeRelease.loaded().version(), InterpreterSettings.DEFAULT.resolverName(),
                    InterpreterSettings.DEFAULT.threads(), warmup, samples, rounds);
        } finally {
            loaded.forEach(Loaded::close);
        }
    }

    /**
     * Which models this release can run, before any round: each loaded and allocated as a round does, and closed
     * again; a model it cannot run has the error that stopped it (a custom op its resolver lacks, say), the others
     * no times.
     */
    public static RoundReport runnable(List<Path> models, Progress progress) {
        List<ModelRound> checked = new ArrayList<>();
        for (Path file : models) {
            progress.advance(checked.size(), models.size(), "loading " + file.getFileName());
            try (Loaded loaded = Loaded.of(file)) {
                checked.add(loaded.error() != null ? ModelRound.failed(loaded.name(), loaded.error())
                        : new ModelRound(loaded.name(), null, null, null, null, null, null, null));
            }
        }
        return new RoundReport(RoundReport.FORMAT, RoundReport.VERSION, NativeRelease.version(),
                NativeRelease.loaded().version(), InterpreterSettings.DEFAULT.resolverName(),
                InterpreterSettings.DEFAULT.threads(), 0, 0, checked);
    }

    /** A model loaded, its interpreter allocated with seeded inputs; or the error that stopped it. */
    private record Loaded(String name, NativeModel model, NativeInterpreter interpreter, String error)
            implements AutoCloseable {
        static Loaded of(Path file) {
            String name = file.getFileName().toString();
            NativeModel model = null;
            try {
                model = NativeModel.load(file);
                NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
                try {
                    interpreter.allocateTensors();
                    for (int i = 0; i < interpreter.inputCount(); i++) {
                        interpreter.writeInput(i, SeededInputs.of(interpreter.input(i), SEED));
                    }
                } catch (RuntimeException e) {
                    interpreter.close();
                    throw e;
                }
                return new Loaded(name, model, interpreter, null);
            } catch (NativeException e) {
                if (model != null) {
                    model.close();
                }
                return new Loaded(name, null, null, e.getMessage());
            }
        }

        @Override
        public void close() {
            if (interpreter != null) {
                interpreter.close();
                model.close();
            }
        }
    }

    /**
     * Each model's fastest invoke sample, the samples taken model after model, round and round: a disturbance
     * of a few hundred milliseconds then falls on one sample of a model, not on all of them.
     */
    private Map<Loaded, Double> invokeTimes(List<Loaded> loaded, Progress progress) throws Exception {
        Map<Loaded, SampleTime.Sampler> samplers = new LinkedHashMap<>();
        for (Loaded model : loaded) {
            if (model.error() == null) {
                progress.advance(samplers.size(), loaded.size(), "warming up " + model.name());
                samplers.put(model, SampleTime.warmedUp(warmup, model.interpreter()::invoke));
            }
        }
        Map<Loaded, Double> fastest = new LinkedHashMap<>();
        for (int i = 0; i < samples; i++) {
            progress.advance(i, samples, "invoke samples");
            for (Map.Entry<Loaded, SampleTime.Sampler> e : samplers.entrySet()) {
                fastest.merge(e.getKey(), e.getValue().sampleMillis(), Math::min);
            }
        }
        return fastest;
    }

    private ModelRound measure(Loaded loaded, Double invokeMs, TfliteRelease otherRules) throws Exception {
        NativeModel model = loaded.model();
        NativeInterpreter interpreter = loaded.interpreter();
        try {
            Double setupMs = null;
            if (metrics.contains(Metric.NATIVE_SETUP)) {
                setupMs = SampleTime.fastestMillis(warmup, samples, () -> {
                    try (NativeInterpreter other = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
                        other.allocateTensors();
                    }
                });
            }
            Graph graph = metrics.contains(Metric.JAVA_PLAN) || otherRules != null ? interpreter.snapshot() : null;
            Double javaPlanMs = null;
            if (metrics.contains(Metric.JAVA_PLAN)) {
                TflitePlanner planner = new TflitePlanner();
                javaPlanMs = SampleTime.fastestMillis(warmup, samples, () -> planner.plan(graph));
            }
            Map<String, Double> ops = null;
            List<NodeTime> nodes = null;
            if (metrics.contains(Metric.OPS)) {
                List<RunProfile> profiles = profile(interpreter);
                ops = opTimes(profiles);
                nodes = nodeTimes(profiles);
            }
            RoundReport.Plans plans = otherRules == null ? null : plans(interpreter, graph, otherRules);
            return new ModelRound(loaded.name(), null, invokeMs, setupMs, javaPlanMs, ops, nodes, plans);
        } catch (NativeException e) {
            return ModelRound.failed(loaded.name(), e.getMessage());
        }
    }

    /** The round's profiled invokes, after the warm-up; the profiler is off again afterwards. */
    private List<RunProfile> profile(NativeInterpreter interpreter) throws Exception {
        for (int i = 0; i < warmup; i++) {
            interpreter.invoke();
        }
        List<RunProfile> profiles = new ArrayList<>();
        try (OpProfiler profiler = new OpProfiler(PROFILE_CAPACITY)) {
            interpreter.setProfiler(profiler);
            try {
                for (int i = 0; i < samples; i++) {
                    profiler.clear();
                    interpreter.invoke();
                    RunProfile profile = RunProfile.of(profiler.events());
                    if (profile.dropped() > 0) {
                        throw new IllegalStateException("one invoke ran more than " + PROFILE_CAPACITY
                                + " nodes; the op profile would leave " + profile.dropped() + " out");
                    }
                    profiles.add(profile);
                }
            } finally {
                interpreter.setProfiler(null);
            }
        }
        return profiles;
    }

    /** Per op type, the fastest over the invokes of its nodes' summed time. */
    private static Map<String, Double> opTimes(List<RunProfile> profiles) {
        Map<String, double[]> perInvoke = new LinkedHashMap<>();
        for (int i = 0; i < profiles.size(); i++) {
            for (RunProfile.Node node : profiles.get(i).nodes()) {
                perInvoke.computeIfAbsent(node.op(), op -> new double[profiles.size()])[i] += node.nanos() / 1e6;
            }
        }
        Map<String, Double> fastest = new LinkedHashMap<>();
        perInvoke.forEach((op, times) -> fastest.put(op, SampleTime.fastest(times)));
        return fastest;
    }

    /** Per node, the fastest over the invokes of its time (summed over its invocations in one invoke). */
    private static List<NodeTime> nodeTimes(List<RunProfile> profiles) {
        record Key(int subgraph, int node, String op) {
        }
        Map<Key, double[]> perInvoke = new LinkedHashMap<>();
        for (int i = 0; i < profiles.size(); i++) {
            for (RunProfile.Node node : profiles.get(i).nodes()) {
                perInvoke.computeIfAbsent(new Key(node.subgraph(), node.node(), node.op()),
                        key -> new double[profiles.size()])[i] += node.nanos() / 1e6;
            }
        }
        List<NodeTime> nodes = new ArrayList<>();
        perInvoke.forEach((key, times) -> nodes.add(new NodeTime(key.subgraph(), key.node(), key.op(),
                SampleTime.fastest(times))));
        return nodes;
    }

    private static RoundReport.Plans plans(NativeInterpreter interpreter, Graph graph, TfliteRelease otherRules) {
        Plan nativePlan = interpreter.nativePlan();
        Plan underOther = new TflitePlanner().plan(graph.withRelease(otherRules));
        MemoryInfo buffers = interpreter.memoryInfo();
        return new RoundReport.Plans(graph.subgraphs().stream().mapToInt(s -> s.tensors().size()).sum(),
                nativePlan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum(),
                nativePlan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum(),
                buffers.arenaBytes(), buffers.persistentBytes(), placements(nativePlan, graph),
                otherRules.version(), placements(underOther, graph));
    }

    private static List<TensorPlacement> placements(Plan plan, Graph graph) {
        List<TensorPlacement> placements = new ArrayList<>();
        for (SubgraphPlan subgraph : plan.subgraphs()) {
            List<Tensor> tensors = graph.subgraphs().get(subgraph.subgraph()).tensors();
            for (Placement p : subgraph.placements()) {
                placements.add(new TensorPlacement(subgraph.subgraph(), p.tensor(), tensors.get(p.tensor()).name(),
                        p.arena().jsonName(), p.offset(), p.bytes(), p.first(), p.last()));
            }
        }
        return placements;
    }
}
