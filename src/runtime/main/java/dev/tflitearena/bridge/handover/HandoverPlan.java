package dev.tflitearena.bridge.handover;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.tflite.TflitePlanner;

import java.util.List;

/**
 * What {@link PlanHandover} derives from a plan and its graph alone, read once per plan by its arena instead
 * of once per interpreter and subgraph: whether a Java plan can drive the graph, whether control flow lends
 * tensors, and per subgraph what is handed over.
 *
 * @param computedShapeReshape whether a RESHAPE's new shape is computed by an op ({@link
 *                             TflitePlanner#hasComputedShapeReshape}): no Java plan can drive such a graph
 * @param controlFlow          whether the graph has a WHILE or IF node, the only ones that lend tensors
 *                             ({@link LentTensors})
 */
record HandoverPlan(boolean computedShapeReshape, boolean controlFlow, Subgraph[] subgraphs) {

    /**
     * One subgraph's part; arrays are shared by every interpreter handed the plan, and never written.
     *
     * @param handsOver             whether its tensors go to the Java arena at all: in a graph with dynamic-shape
     *                              ops, the subgraphs control flow calls may first be prepared during Invoke, after
     *                              the plan's snapshot saw them unprepared (their temporaries unknown), so they
     *                              stay native
     * @param tensorCount           the tensors of the plan's graph, which the prepared subgraph must have
     * @param firstPreparedInInvoke the first node TFLite prepares only during Invoke: TFLite prepares the nodes up
     *                              to the first with a dynamic output ({@link TflitePlanner#hasDynamicOutput})
     *                              when tensors are allocated and stops there, then prepares the rest during
     *                              Invoke once it has run (PrepareOpsStartingAt in core/subgraph.cc), each time
     *                              its output changes size; Integer.MAX_VALUE when every node is prepared when
     *                              tensors are allocated (not the node count: a delegate leaves the plan's graph
     *                              fewer nodes than the interpreter has before it is applied)
     * @param variables             the planned variable tensors: a called subgraph is prepared again at each
     *                              invoke, and TFLite zeroes them then
     * @param placements            the placements handed over: those with memory, of tensors allocated before
     *                              {@code firstPreparedInInvoke}
     * @param tensors               their tensors
     * @param bytes                 their bytes
     */
    record Subgraph(boolean handsOver, int tensorCount, int firstPreparedInInvoke, int[] variables,
                    Placement[] placements, int[] tensors, long[] bytes) {

        /** The handed-over placement of {@code tensor}, or null. */
        Placement placement(int tensor) {
            for (Placement p : placements) {
                if (p.tensor() == tensor) {
                    return p;
                }
            }
            return null;
        }
    }

    static HandoverPlan of(Graph graph, Plan plan) {
        // Only called subgraphs depend on it, and asking costs more than the rest of the plan's handover.
        boolean dynamic = graph.subgraphs().size() > 1 && TflitePlanner.isDynamic(graph);
        boolean controlFlow = false;
        Subgraph[] subgraphs = new Subgraph[graph.subgraphs().size()];
        for (int s = 0; s < subgraphs.length; s++) {
            dev.tflitearena.graph.Subgraph subgraph = graph.subgraphs().get(s);
            List<Node> nodes = subgraph.nodes();
            int firstPreparedInInvoke = Integer.MAX_VALUE;
            for (int n = 0; n < nodes.size(); n++) {
                Node node = nodes.get(n);
                controlFlow |= node.op().equals("WHILE") || node.op().equals("IF");
                if (firstPreparedInInvoke == Integer.MAX_VALUE && TflitePlanner.hasDynamicOutput(subgraph, node)) {
                    firstPreparedInInvoke = n;
                }
            }
            subgraphs[s] = subgraph(subgraph, plan.subgraphs().get(s).placements(), s == 0 || !dynamic,
                    firstPreparedInInvoke);
        }
        return new HandoverPlan(TflitePlanner.hasComputedShapeReshape(graph), controlFlow, subgraphs);
    }

    private static Subgraph subgraph(dev.tflitearena.graph.Subgraph subgraph, List<Placement> planned,
                                     boolean handsOver, int firstPreparedInInvoke) {
        List<Tensor> tensors = subgraph.tensors();
        int variableCount = 0;
        for (Tensor t : tensors) {
            variableCount += t.variable() ? 1 : 0;
        }
        int[] variables = new int[variableCount];
        int v = 0;
        for (Tensor t : tensors) {
            if (t.variable()) {
                variables[v++] = t.index();
            }
        }
        int count = 0;
        for (Placement p : planned) {
            count += handsOver(p, firstPreparedInInvoke) ? 1 : 0;
        }
        Placement[] placements = new Placement[count];
        int[] placedTensors = new int[count];
        long[] bytes = new long[count];
        int i = 0;
        for (Placement p : planned) {
            if (handsOver(p, firstPreparedInInvoke)) {
                placements[i] = p;
                placedTensors[i] = p.tensor();
                bytes[i] = p.bytes();
                i++;
            }
        }
        return new Subgraph(handsOver, tensors.size(), firstPreparedInInvoke, variables, placements, placedTensors,
                bytes);
    }

    /**
     * Every planned tensor of every subgraph goes to the Java arena, those of the subgraphs control flow calls
     * too. A WHILE or IF kernel prepares the subgraphs it calls again at each invoke (it releases their memory
     * after running them, then AllocateTensors plans them from scratch), which prepares their handover node
     * again: the custom allocations it gives are registered in the subgraph and outlive the re-preparation,
     * and a kernel that turns a temporary back into an arena tensor while it is prepared gets it handed over
     * again by the node that follows it. In a graph with dynamic-shape ops, only the tensors of the nodes
     * prepared when tensors are allocated: TFLite sizes the others during Invoke, anew whenever the output of
     * the op before them changes size, so no plan made beforehand fits them, and it plans them in its arena.
     * A validated plan's first nodes are the graph's ({@link dev.tflitearena.plan.PlanValidator#validated}), -1
     * for a tensor never allocated, whatever a plan from a file said.
     */
    private static boolean handsOver(Placement p, int firstPreparedInInvoke) {
        return p.hasMemory() && p.first() >= 0 && p.first() < firstPreparedInInvoke;
    }
}
