package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import dev.tflitearena.bridge.snapshot.NativePlanReader;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanComparison;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.SignatureRunner;
import org.bytedeco.tensorflowlite.StringVector;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java 'tflite' planner against the native ArenaPlanner on one prepared interpreter, subgraph by subgraph,
 * each read while TFLite holds its plan. The interpreter's AllocateTensors plans the primary subgraph and
 * those WHILE and IF call; a signature's subgraph is planned when its signature runner allocates, so every
 * signature runner is. A graph with dynamic-shape ops, or with a subgraph still unplanned (CALL_ONCE's init
 * subgraph), is only fully planned once it has run, so it is invoked once, on seeded inputs, first; the
 * subgraphs TFLite frees inside that invoke are read there, by a {@link PlanProbe}. A subgraph TFLite never
 * planned, or planned and freed without running it, has no native plan: it is not compared, and says why.
 */
public final class CrossCheck {
    /**
     * @param invokes how many invokes ran before the plans were read: 0, or 1
     * @param invokedFor why the graph was invoked first; null when it was not
     */
    public record Result(Graph graph, PlanComparison comparison, int invokes, String invokedFor) {
    }

    private CrossCheck() {
    }

    public static Result run(NativeModel model, InterpreterSettings settings, long seed) {
        try (NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            Interpreter live = interpreter.live();
            PlanProbe[] probes = new PlanProbe[(int) live.subgraphs_size()];
            try {
                for (int s = 1; s < probes.length; s++) {
                    probes[s] = PlanProbe.install(live, s, NativeRelease.loadedOr(settings.release()));
                }
                interpreter.allocateTensors();
                allocateSignatureRunners(live, model);
                return compare(interpreter, probes, seed);
            } finally {
                for (PlanProbe probe : probes) {
                    if (probe != null) {
                        probe.uninstall();
                    }
                }
            }
        }
    }

    private static Result compare(NativeInterpreter interpreter, PlanProbe[] probes, long seed) {
        Graph graph = interpreter.snapshot();
        String invokedFor = invokedFor(graph, probes);
        if (invokedFor != null) {
            for (int input = 0; input < interpreter.inputCount(); input++) {
                interpreter.writeInput(input, SeededInputs.of(interpreter.input(input), seed));
            }
            interpreter.invoke();
            graph = interpreter.snapshot();
        }
        Plan nativeNow = interpreter.nativePlan();
        List<Subgraph> subgraphs = new ArrayList<>(graph.subgraphs());
        List<SubgraphPlan> nativePlans = new ArrayList<>(nativeNow.subgraphs());
        Map<Integer, String> unplanned = new LinkedHashMap<>();
        for (int s = 1; s < probes.length; s++) {
            PlanProbe.Reading reading = probes[s].lastRun();
            if (reading == null && probes[s].prepared() && !NativePlanReader.rwArenaEmpty(interpreter.live().subgraph(s))) {
                reading = probes[s].readNow();
            }
            if (reading != null) {
                subgraphs.set(s, reading.graph());
                nativePlans.set(s, reading.plan());
            } else {
                unplanned.put(s, probes[s].prepared()
                        ? "TFLite planned it and freed its arena without running it"
                        : "TFLite never planned it" + (invokedFor == null ? "" : ", even in an invoke"));
            }
        }
        Graph compared = new Graph(graph.options(), subgraphs);
        PlanComparison comparison = PlanComparison.of(new Plan(nativeNow.planner(), nativePlans),
                new TflitePlanner().plan(compared), unplanned);
        return new Result(compared, comparison, invokedFor == null ? 0 : 1, invokedFor);
    }

    /** Why the plans can only be read after an invoke, or null when they can be read now. */
    private static String invokedFor(Graph graph, PlanProbe[] probes) {
        if (TflitePlanner.isDynamic(graph)) {
            return "the graph has dynamic-shape ops";
        }
        for (int s = 1; s < probes.length; s++) {
            if (!probes[s].prepared()) {
                return "subgraph " + s + " was not planned when tensors were allocated";
            }
        }
        return null;
    }

    /** Plans every signature's subgraph, as a caller does through the signature runner before running it. */
    private static void allocateSignatureRunners(Interpreter live, NativeModel model) {
        StringVector keys = live.signature_keys();
        for (long k = 0; k < keys.size(); k++) {
            BytePointer key = keys.get(k);
            if (live.GetSubgraphIndexFromSignature(key) == 0) {
                continue;
            }
            SignatureRunner runner = live.GetSignatureRunner(key);
            String what = model.path() + ": AllocateTensors of signature '" + key.getString() + "'";
            if (runner == null || runner.isNull()) {
                throw new NativeException(what + ": TFLite gives no signature runner");
            }
            TfLiteStatus.check(TfLiteStatus.call(runner::AllocateTensors, what), what);
        }
    }
}
