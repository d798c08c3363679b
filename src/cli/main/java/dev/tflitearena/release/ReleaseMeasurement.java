package dev.tflitearena.release;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.MemoryInfo;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import dev.tflitearena.progress.Progress;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Measures models on the TFLite release loaded in this JVM: the cross-check under the four interpreter
 * settings, the native plan's sizes and three timings (see {@link MedianTime}). Sizes and timings use the
 * default settings, TFLite's builtin kernels without XNNPACK, whose arena holds every activation.
 */
public final class ReleaseMeasurement {
    private static final long SEED = 1;
    private static final Map<String, InterpreterSettings> CROSS_CHECKS = new LinkedHashMap<>();

    static {
        CROSS_CHECKS.put("builtin", InterpreterSettings.DEFAULT);
        CROSS_CHECKS.put("builtin, preserve_all_tensors", InterpreterSettings.DEFAULT.withPreserveAllTensors(true));
        CROSS_CHECKS.put("xnnpack", InterpreterSettings.DEFAULT.withXnnpack(true));
        CROSS_CHECKS.put("xnnpack, preserve_all_tensors",
                InterpreterSettings.DEFAULT.withXnnpack(true).withPreserveAllTensors(true));
    }

    private final int warmup;
    private final int runs;

    public ReleaseMeasurement(int warmup, int runs) {
        if (warmup < 0 || runs < 1) {
            throw new IllegalArgumentException("need warmup >= 0 and runs >= 1, got " + warmup + " and " + runs);
        }
        this.warmup = warmup;
        this.runs = runs;
    }

    /** Measures the models, each an item of {@code progress}. */
    public ReleaseReport measure(List<Path> models, Progress progress) throws Exception {
        List<ModelReport> reports = new ArrayList<>();
        OperatingSystemMXBean system = ManagementFactory.getOperatingSystemMXBean();
        double maxLoad = 0;
        for (Path model : models) {
            String name = model.getFileName().toString();
            reports.add(measure(model, part -> progress.advance(reports.size(), models.size(), name + ": " + part)));
            maxLoad = Math.max(maxLoad, system.getSystemLoadAverage());
        }
        return new ReleaseReport(ReleaseReport.FORMAT, ReleaseReport.VERSION, NativeRelease.version(),
                NativeRelease.loaded().version(), InterpreterSettings.DEFAULT.resolverName(),
                new ReleaseReport.Timing("in-process wall clock, not JMH: warm-up runs unmeasured, then the median "
                        + "of samples of at least 20 ms, a faster action repeated within a sample", warmup, runs),
                new ReleaseReport.Machine(System.getProperty("os.arch"), system.getAvailableProcessors(),
                        System.getProperty("java.version"), maxLoad), reports);
    }

    /** Measures one model, telling {@code parts} what it is measuring. */
    private ModelReport measure(Path file, Consumer<String> parts) throws Exception {
        String name = file.getFileName().toString();
        try (NativeModel model = NativeModel.load(file)) {
            List<ModelReport.CrossCheckResult> checks = new ArrayList<>();
            CrossCheck.Result reference = null;
            for (Map.Entry<String, InterpreterSettings> e : CROSS_CHECKS.entrySet()) {
                parts.accept("cross-check, " + e.getKey());
                CrossCheck.Result result = CrossCheck.run(model, e.getValue(), SEED);
                PlanComparison c = result.comparison();
                int mismatches = c.subgraphs().stream().mapToInt(s -> s.mismatches().size()).sum();
                checks.add(new ModelReport.CrossCheckResult(e.getKey(), c.identical(), mismatches));
                if (reference == null) {
                    reference = result;
                }
            }
            Graph graph = reference.graph();
            Plan nativePlan = reference.comparison().expected();
            TflitePlanner planner = new TflitePlanner();
            parts.accept("timing the Java planner, set-up and invoke");
            double javaPlanMs = MedianTime.millis(warmup, runs, () -> planner.plan(graph));
            double setupMs = MedianTime.millis(warmup, runs, () -> {
                try (NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
                    interpreter.allocateTensors();
                }
            });
            try (NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
                interpreter.allocateTensors();
                for (int i = 0; i < interpreter.inputCount(); i++) {
                    interpreter.writeInput(i, SeededInputs.of(interpreter.input(i), SEED));
                }
                MemoryInfo buffers = interpreter.memoryInfo();
                double invokeMs = MedianTime.millis(warmup, runs, interpreter::invoke);
                return new ModelReport(name, null, checks,
                        graph.subgraphs().stream().mapToInt(s -> s.tensors().size()).sum(),
                        reference.comparison().subgraphs().stream().mapToInt(s -> s.tensorsCompared()).sum(),
                        nativePlan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum(),
                        nativePlan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum(),
                        buffers.arenaBytes(), buffers.persistentBytes(), javaPlanMs, setupMs, invokeMs);
            }
        } catch (NativeException e) {
            return ModelReport.failed(name, e.getMessage());
        }
    }
}
