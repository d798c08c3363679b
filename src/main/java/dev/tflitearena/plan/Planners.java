package dev.tflitearena.plan;

import java.util.List;
import java.util.stream.Collectors;

/** The planners users can select by name. */
public final class Planners {
    private static final List<Planner> ALL = List.of(
            new TflitePlanner(),
            new PlacerPlanner(new TflmGreedyPlacer()),
            new PlacerPlanner(new GreedyBySizePlacer()),
            new PlacerPlanner(new GreedyByBreadthPlacer()),
            new PlacerPlanner(new BestOfPlacer()));

    private Planners() {
    }

    public static List<Planner> all() {
        return ALL;
    }

    public static Planner byName(String name) {
        return ALL.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown planner '" + name + "'; valid: " + names()));
    }

    public static String names() {
        return ALL.stream().map(Planner::name).collect(Collectors.joining(", "));
    }
}
