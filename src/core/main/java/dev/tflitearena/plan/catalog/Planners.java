package dev.tflitearena.plan.catalog;

import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.place.BestOfPlacer;
import dev.tflitearena.plan.place.GreedyByBreadthPlacer;
import dev.tflitearena.plan.place.GreedyBySizePlacer;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.PlacerPlanner;
import dev.tflitearena.plan.place.TflitePlacer;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.place.TflmLinearPlacer;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The planners users select by name: for a graph, {@code tflite} reproduces the native planner and the
 * others place its rw arena under the same lifetimes; for a bare buffer set, each has a placer of the
 * same name. Only {@code optimal} takes the time limit. Other jars bring their own: a {@link Placer} or
 * {@link Planner} implementation on the classpath, declared as a service
 * ({@code META-INF/services/dev.tflitearena.plan.place.Placer} or {@code ...plan.Planner}), joins the built-in
 * ones under its name; a placer is also a planner, as the built-in placers are. A plan read from a file joins
 * the process's planners through {@link #register(Planner)}.
 */
public final class Planners {
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(10);
    /** The name that selects TFLite's own planner, where a command can run it instead of a Java planner. */
    public static final String NATIVE = "native";

    /** Planners registered in this process, by name. */
    private static final Map<String, Planner> REGISTERED = new ConcurrentHashMap<>();

    private Planners() {
    }

    /** The built-in placers, then those other jars bring. */
    public static List<Placer> placers(Duration timeLimit) {
        List<Placer> placers = new ArrayList<>(builtInPlacers(timeLimit));
        placers.addAll(Plugins.get().placers());
        return placers;
    }

    private static List<Placer> builtInPlacers(Duration timeLimit) {
        return List.of(new TflitePlacer(), new TflmGreedyPlacer(), new TflmLinearPlacer(), new GreedyBySizePlacer(),
                new GreedyByBreadthPlacer(), new BestOfPlacer(), new OptimalPlacer(timeLimit));
    }

    /** Every placer as a planner, then the planners other jars bring. */
    public static List<Planner> all(Duration timeLimit) {
        List<Planner> planners = new ArrayList<>(placers(timeLimit).stream()
                .map(p -> p instanceof TflitePlacer ? new TflitePlanner() : (Planner) new PlacerPlanner(p))
                .toList());
        planners.addAll(Plugins.get().planners());
        return planners;
    }

    /**
     * Makes a planner selectable by name for the rest of the process, as a plan read from a file is in the
     * commands that build sessions by planner name; a later one of the same name replaces it. It is found by
     * name only: the lists of every planner stay as they are. The name may not be one of those planners'.
     */
    public static void register(Planner planner) {
        if (NATIVE.equals(planner.name()) || all().stream().anyMatch(p -> p.name().equals(planner.name()))) {
            throw new IllegalArgumentException("a planner named '" + planner.name() + "' exists already");
        }
        REGISTERED.put(planner.name(), planner);
    }

    /** Every planner, {@code optimal} with the default time limit. */
    public static List<Planner> all() {
        return all(DEFAULT_TIME_LIMIT);
    }

    public static Planner byName(String name) {
        return byName(name, DEFAULT_TIME_LIMIT);
    }

    public static Planner byName(String name, Duration timeLimit) {
        return find(all(timeLimit), name).orElseThrow(() -> unknown(name, names()));
    }

    private static Optional<Planner> find(List<Planner> planners, String name) {
        return planners.stream().filter(p -> p.name().equals(name)).findFirst()
                .or(() -> Optional.ofNullable(REGISTERED.get(name)));
    }

    /** The Java planner of that name, or null for {@value #NATIVE}. */
    public static Planner byNameOrNative(String name) {
        if (NATIVE.equals(name)) {
            return null;
        }
        return find(all(), name).orElseThrow(() -> unknown(name, names() + ", " + NATIVE));
    }

    public static Placer placerByName(String name, Duration timeLimit) {
        List<Placer> placers = placers(timeLimit);
        return placers.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() -> unknown(name,
                placers.stream().map(Placer::name).collect(Collectors.joining(", "))));
    }

    private static IllegalArgumentException unknown(String name, String valid) {
        return new IllegalArgumentException("unknown planner '" + name + "'; valid: " + valid);
    }

    public static String names() {
        return all().stream().map(Planner::name).collect(Collectors.joining(", "));
    }

    /**
     * The implementations other jars declare, loaded once per process: a name that is already taken (by a
     * built-in planner, {@value #NATIVE} or another jar's) is refused, naming the class, rather than one
     * silently hiding the other.
     */
    private record Plugins(List<Placer> placers, List<Planner> planners) {
        private static Plugins loaded;

        static synchronized Plugins get() {
            if (loaded == null) {
                Map<String, String> taken = new LinkedHashMap<>();
                builtInPlacers(DEFAULT_TIME_LIMIT).forEach(p -> taken.put(p.name(), "a built-in planner"));
                taken.put(NATIVE, "TFLite's own planner");
                loaded = new Plugins(load(Placer.class, Placer::name, taken), load(Planner.class, Planner::name, taken));
            }
            return loaded;
        }

        private static <T> List<T> load(Class<T> service, Function<T, String> name, Map<String, String> taken) {
            List<T> found = new ArrayList<>();
            for (T plugin : ServiceLoader.load(service)) {
                String what = plugin.getClass().getName();
                String before = taken.putIfAbsent(name.apply(plugin), what);
                if (before != null) {
                    throw new IllegalStateException(service.getSimpleName() + " " + what + " is named '"
                            + name.apply(plugin) + "', the name of " + before + ": give it another");
                }
                found.add(plugin);
            }
            return List.copyOf(found);
        }
    }
}
