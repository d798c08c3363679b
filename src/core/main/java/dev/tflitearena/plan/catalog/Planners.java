package dev.tflitearena.plan.catalog;

import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.place.BestOfPlacer;
import dev.tflitearena.plan.place.GreedyByBreadthPlacer;
import dev.tflitearena.plan.place.GreedyBySizePlacer;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.PlacerPlanner;
import dev.tflitearena.plan.place.TflitePlacer;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The planners users select by name: for a graph, {@code tflite} reproduces the native planner and the
 * others place its rw arena under the same lifetimes; for a bare buffer set, each has a placer of the
 * same name. Only {@code optimal} takes the time limit.
 */
public final class Planners {
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(10);
    /** The name that selects TFLite's own planner, where a command can run it instead of a Java planner. */
    public static final String NATIVE = "native";

    private Planners() {
    }

    public static List<Placer> placers(Duration timeLimit) {
        return List.of(new TflitePlacer(), new TflmGreedyPlacer(), new GreedyBySizePlacer(),
                new GreedyByBreadthPlacer(), new BestOfPlacer(), new OptimalPlacer(timeLimit));
    }

    public static List<Planner> all(Duration timeLimit) {
        return placers(timeLimit).stream()
                .map(p -> p instanceof TflitePlacer ? new TflitePlanner() : (Planner) new PlacerPlanner(p))
                .toList();
    }

    /** Every planner, {@code optimal} with the default time limit. */
    public static List<Planner> all() {
        return all(DEFAULT_TIME_LIMIT);
    }

    public static Planner byName(String name) {
        return byName(name, DEFAULT_TIME_LIMIT);
    }

    public static Planner byName(String name, Duration timeLimit) {
        return all(timeLimit).stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> unknown(name, names()));
    }

    /** The Java planner of that name, or null for {@value #NATIVE}. */
    public static Planner byNameOrNative(String name) {
        if (NATIVE.equals(name)) {
            return null;
        }
        return all().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> unknown(name, names() + ", " + NATIVE));
    }

    public static Placer placerByName(String name, Duration timeLimit) {
        return placers(timeLimit).stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> unknown(name, names()));
    }

    private static IllegalArgumentException unknown(String name, String valid) {
        return new IllegalArgumentException("unknown planner '" + name + "'; valid: " + valid);
    }

    public static String names() {
        return placers(DEFAULT_TIME_LIMIT).stream().map(Placer::name).collect(Collectors.joining(", "));
    }
}
