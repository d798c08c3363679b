package dev.tflitearena.release;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.MemoryInfo;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.progress.Progress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Measures models on the TFLite release loaded in this JVM: the cross-check under the four interpreter
 * settings and the native plan's sizes. Sizes use the default settings, TFLite's builtin kernels without
 * XNNPACK, whose arena holds every activation.
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

    private ReleaseMeasurement() {
    }

    /** Measures the models, each an item of {@code progress}. */
    public static ReleaseReport measure(List<Path> models, Progress progress) throws Exception {
        List<ModelReport> reports = new ArrayList<>();
        for (Path model : models) {
            String name = model.getFileName().toString();
            reports.add(measure(model, part -> progress.advance(reports.size(), models.size(), name + ": " + part)));
        }
        return new ReleaseReport(ReleaseReport.FORMAT, ReleaseReport.VERSION, NativeRelease.version(),
                NativeRelease.loaded().version(), InterpreterSettings.DEFAULT.resolverName(),
                new ReleaseReport.Machine(System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
                        System.getProperty("java.version")), reports);
    }

    /** Measures one model, telling {@code parts} what it is measuring. */
    private static ModelReport measure(Path file, Consumer<String> parts) throws Exception {
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
            Plan nativePlan = reference.comparison().expected();
            try (NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
                interpreter.allocateTensors();
                MemoryInfo buffers = interpreter.memoryInfo();
                return new ModelReport(name, null, checks,
                        reference.graph().subgraphs().stream().mapToInt(s -> s.tensors().size()).sum(),
                        reference.comparison().subgraphs().stream().mapToInt(s -> s.tensorsCompared()).sum(),
                        nativePlan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum(),
                        nativePlan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum(),
                        buffers.arenaBytes(), buffers.persistentBytes());
            }
        } catch (NativeException e) {
            return ModelReport.failed(name, e.getMessage());
        }
    }
}
