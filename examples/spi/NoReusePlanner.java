package example.planner;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.PlacerPlanner;

/**
 * A planner another jar brings: no tensor's memory is reused, every rw buffer has bytes of its own, end to
 * end, what a plan costs without sharing. Built on {@link PlacerPlanner}, which keeps TFLite's in-place aliases
 * and persistent arena. On the classpath with its service file, it is {@code --planner no-reuse}.
 */
public final class NoReusePlanner implements Planner {
    private final Planner endToEnd = new PlacerPlanner(new Placer() {
        @Override
        public String name() {
            return "no-reuse";
        }

        @Override
        public Solution place(BufferSet set) {
            long[] offsets = new long[set.buffers().size()];
            long end = 0;
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = end;
                end += (set.buffers().get(i).size() + set.alignment() - 1) / set.alignment() * set.alignment();
            }
            return new Solution(offsets, false);
        }
    });

    @Override
    public String name() {
        return endToEnd.name();
    }

    @Override
    public SubgraphPlan plan(Subgraph subgraph, Graph.Options options) {
        return endToEnd.plan(subgraph, options);
    }
}
