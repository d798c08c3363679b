package dev.tflitearena.release.compare;

import dev.tflitearena.graph.TfliteRelease;
import dev.tflitearena.release.compare.ReleaseComparison.ArenaChange;
import dev.tflitearena.release.compare.ReleaseComparison.Figures;
import dev.tflitearena.release.compare.ReleaseComparison.MovedTensor;
import dev.tflitearena.release.compare.RoundReport.Plans;
import dev.tflitearena.release.compare.RoundReport.TensorPlacement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tensors whose place in TFLite's plan differs between two sides, and the release rule behind each where the
 * project knows it: side A's prepared graph planned by the Java planner under B's rules lands the tensor where B's
 * TFLite put it exactly when those rules, and nothing the kernels changed, moved it.
 */
final class TensorMoves {
    private TensorMoves() {
    }

    /** The planner rules that differ between two releases, as {@link TfliteRelease} models them. */
    static List<String> rulesChanged(TfliteRelease a, TfliteRelease b) {
        List<String> changed = new ArrayList<>();
        if (a.sharing() != b.sharing()) {
            changed.add("how an output shares its input's memory: " + a.sharing() + " -> " + b.sharing());
        }
        if (a.sharingUnderPreserveAll() != b.sharingUnderPreserveAll()) {
            changed.add("outputs share under preserve_all_tensors: " + a.sharingUnderPreserveAll() + " -> "
                    + b.sharingUnderPreserveAll());
        }
        if (a.arenaBufferPadding() != b.arenaBufferPadding()) {
            changed.add("an arena buffer's bytes beyond its plan: " + a.arenaBufferPadding() + " -> "
                    + b.arenaBufferPadding());
        }
        if (a.reshapeShapeNotKnown() != b.reshapeShapeNotKnown()) {
            changed.add("a RESHAPE whose shape an op computes returns kTfLiteOutputShapeNotKnown: "
                    + a.reshapeShapeNotKnown() + " -> " + b.reshapeShapeNotKnown());
        }
        return changed;
    }

    /** The model's change from A to B, or null when its figures and every tensor's place are the same. */
    static ArenaChange of(String model, Plans a, Plans b, TfliteRelease aRelease, TfliteRelease bRelease) {
        Map<List<Integer>, TensorPlacement> before = byTensor(a.nativePlan());
        Map<List<Integer>, TensorPlacement> after = byTensor(b.nativePlan());
        Map<List<Integer>, TensorPlacement> underB = bRelease.version().equals(a.otherRules())
                ? byTensor(a.javaPlanUnderOtherRules()) : Map.of();
        List<String> rules = rulesChanged(aRelease, bRelease);
        List<MovedTensor> moved = new ArrayList<>();
        Map<List<Integer>, TensorPlacement> all = new LinkedHashMap<>(before);
        after.forEach(all::putIfAbsent);
        for (List<Integer> key : all.keySet()) {
            TensorPlacement pa = before.get(key);
            TensorPlacement pb = after.get(key);
            if (pa != null && pb != null && samePlace(pa, pb)) {
                continue;
            }
            TensorPlacement any = pa != null ? pa : pb;
            moved.add(new MovedTensor(key.get(0), key.get(1), any.name(), pa, pb, why(pa, pb, underB.get(key), rules)));
        }
        Figures fa = figures(a);
        Figures fb = figures(b);
        return moved.isEmpty() && fa.equals(fb) ? null : new ArenaChange(model, fa, fb, moved);
    }

    private static String why(TensorPlacement a, TensorPlacement b, TensorPlacement aUnderB, List<String> rules) {
        if (a == null) {
            return "only B's TFLite plans it";
        }
        if (b == null) {
            return "only A's TFLite plans it";
        }
        if (a.bytes() != b.bytes()) {
            return String.format(Locale.ROOT, "its size changed, %,d -> %,d bytes: the kernels of B prepare it so, "
                    + "no planner rule", a.bytes(), b.bytes());
        }
        if (aUnderB != null && samePlace(aUnderB, b) && !rules.isEmpty()) {
            return "B's planner rules place it so (" + String.join("; ", rules) + ")";
        }
        return "not explained by the planner rules the project models: other tensors of the graph B prepares "
                + "moved it";
    }

    private static boolean samePlace(TensorPlacement a, TensorPlacement b) {
        return a.arena().equals(b.arena()) && a.offset() == b.offset() && a.bytes() == b.bytes()
                && a.first() == b.first() && a.last() == b.last();
    }

    private static Map<List<Integer>, TensorPlacement> byTensor(List<TensorPlacement> placements) {
        Map<List<Integer>, TensorPlacement> map = new LinkedHashMap<>();
        for (TensorPlacement p : placements) {
            map.put(List.of(p.subgraph(), p.tensor()), p);
        }
        return map;
    }

    private static Figures figures(Plans plans) {
        return new Figures(plans.tensors(), plans.arenaBytes(), plans.persistentBytes(), plans.arenaBufferBytes(),
                plans.persistentBufferBytes());
    }
}
