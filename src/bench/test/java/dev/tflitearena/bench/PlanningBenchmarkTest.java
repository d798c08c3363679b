package dev.tflitearena.bench;

import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.search.OptimalPlacer;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PlanningBenchmarkTest {
    @Test
    void measuresEveryPlannerButOptimalByDefault() throws NoSuchFieldException {
        List<String> measured = List.of(PlanningBenchmark.JavaPlanner.class.getField("planner")
                .getAnnotation(Param.class).value());
        assertEquals(Planners.all().stream().map(Planner::name).filter(n -> !n.equals(OptimalPlacer.NAME)).toList(),
                measured);
    }
}
