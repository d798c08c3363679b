package dev.tflitearena.plan.catalog;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphBuilder;
import org.junit.jupiter.api.Test;

import static dev.tflitearena.graph.GraphBuilder.ids;
import static dev.tflitearena.graph.Inplace.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RuleBoundsTest {
    /**
     * in (400) -> p (10), which feeds two branches: x1 (300) -> x2 (10) and y1 (100) -> y2 (10), then join (10).
     * The model runs x1, then y1, so both branch heads are live at once beside the pinned input (810 bytes);
     * finishing the x branch first needs 720; releasing the input after its only consumer needs 410.
     */
    private static Graph branches(boolean releaseInputs) {
        GraphBuilder g = new GraphBuilder();
        int in = g.tensor(400), p = g.tensor(10), x1 = g.tensor(300), y1 = g.tensor(100), x2 = g.tensor(10);
        int y2 = g.tensor(10), join = g.tensor(10);
        // Builtin ops: the memory order keeps custom ones where they are.
        return g.op("ADD", ids(in), ids(p), NONE).op("ADD", ids(p), ids(x1), NONE).op("MUL", ids(p), ids(y1), NONE)
                .op("ADD", ids(x1), ids(x2), NONE).op("MUL", ids(y1), ids(y2), NONE)
                .op("ADD", ids(x2, y2), ids(join), NONE).inputs(in).outputs(join).releaseInputs(releaseInputs).build();
    }

    @Test
    void eachRuleIsMeasuredOnItsOwnAndTogetherWhateverTheGraphsOwnRule() {
        for (boolean released : new boolean[] {false, true}) {
            RuleBounds bounds = RuleBounds.of(branches(released));
            assertEquals(PlannerTable.lowerBound(branches(false)), bounds.tfliteRules());
            assertEquals(PlannerTable.lowerBound(branches(true)), bounds.releaseInputs());
            assertEquals(true, bounds.releaseInputs() < bounds.tfliteRules(), bounds.toString());
            assertEquals(true, bounds.memoryOrder() < bounds.tfliteRules(), bounds.toString());
            assertEquals(true, bounds.releaseInputsAndMemoryOrder() <= Math.min(bounds.releaseInputs(),
                    bounds.memoryOrder()), bounds.toString());
        }
    }
}
