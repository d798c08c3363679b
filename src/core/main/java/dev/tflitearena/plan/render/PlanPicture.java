package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.place.BufferSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What a picture of a memory plan shows, whatever draws it: per subgraph, every rw buffer as a box in time
 * (nodes) and memory (offsets), under the arena's top and beside the lower bound no placement can beat, with
 * the step where that bound is met: its peak.
 */
public record PlanPicture(String title, List<Panel> panels) {

    public PlanPicture {
        panels = List.copyOf(panels);
    }

    /**
     * One subgraph's rw arena over {@code steps} time steps (at least 1). {@code caption} is the summary line a
     * renderer prints under the title: planner, arena, lower bound, gap, and what the boxes leave out.
     */
    public record Panel(String title, String caption, int steps, long arenaBytes, long lowerBound, List<Box> boxes,
                        Peak peak) {

        public Panel {
            boxes = List.copyOf(boxes);
        }

        /** How much more the arena uses than the lower bound: arena / lower bound - 1 (0 for an empty arena). */
        public double gap() {
            return LowerBound.gap(arenaBytes, lowerBound);
        }
    }

    /**
     * The step at which the lower bound's live bytes peak, {@code where} naming it for a reader ({@code node 3
     * (CONV_2D)}), and the buffers live there, largest first: the bytes no plan can avoid at once.
     */
    public record Peak(int step, String where, List<Live> live) {
        public Peak {
            live = List.copyOf(live);
        }

        public long bytes() {
            return live.stream().mapToLong(Live::bytes).sum();
        }
    }

    /**
     * A buffer live at the peak: over steps {@code first..last}, written by {@code producer} ({@code node 2
     * (CONV_2D)}, {@code graph input}), empty when unknown, as for a bare buffer set.
     */
    public record Live(String label, long bytes, int first, int last, String producer) {
        public String interval() {
            return PlanPicture.interval(first, last);
        }
    }

    /**
     * One buffer: {@code bytes} from {@code offset}, live over steps {@code first..last} inclusive.
     * {@code aliasOf} is the label of the buffer whose memory an in-place alias shares, or null.
     */
    public record Box(String label, long bytes, long offset, int first, int last, String aliasOf) {

        public boolean alias() {
            return aliasOf != null;
        }

        /**
         * The label for a space of {@code chars}: its {@link #firstName}, else the last part of that name (names
         * share their scope prefix, {@code model_1/model/...}, and differ at the end), cut at the front only where
         * at least {@value #MIN_CUT_CHARS} characters of it remain; else empty, and the box goes unlabelled (its
         * tooltip names it whole): three letters of a name tell a reader nothing.
         */
        public String shortLabel(int chars) {
            String first = firstName(label);
            if (first.length() <= chars) {
                return first;
            }
            String last = first.substring(first.lastIndexOf('/') + 1);
            if (last.length() <= chars) {
                return last;
            }
            return chars - 3 >= MIN_CUT_CHARS ? "..." + last.substring(last.length() - (chars - 3)) : "";
        }

        private static final int MIN_CUT_CHARS = 10;

        public String interval() {
            return PlanPicture.interval(first, last);
        }
    }

    /**
     * TFLite names a fused tensor by every op folded into it, joined by ';': the first is the one a reader
     * knows it by.
     */
    static String firstName(String label) {
        int semicolon = label.indexOf(';');
        return semicolon > 0 ? label.substring(0, semicolon) : label;
    }

    /** When a buffer lives, as every renderer writes it: {@code nodes 3..7}, or {@code node 3}. */
    static String interval(int first, int last) {
        return first == last ? "node " + first : "nodes " + first + ".." + last;
    }

    /**
     * Every subgraph of a planned graph: the rw tensors that got memory, in-place aliases included on their
     * roots. Persistent tensors live for the interpreter's whole life and would only fill the picture: their
     * arena's size is in the caption instead.
     */
    public static PlanPicture of(Graph graph, Plan plan) {
        if (graph.subgraphs().size() != plan.subgraphs().size()) {
            throw new IllegalArgumentException("the plan has " + plan.subgraphs().size() + " subgraphs, the graph "
                    + graph.subgraphs().size());
        }
        List<Panel> panels = new ArrayList<>();
        for (SubgraphPlan subgraphPlan : plan.subgraphs()) {
            Subgraph subgraph = graph.subgraphs().get(subgraphPlan.subgraph());
            panels.add(panel(subgraph, subgraphPlan, plan.planner(), graph.options()));
        }
        return new PlanPicture(plan.planner() + " plan", panels);
    }

    /** One panel of a bare placement problem, labelled by buffer id. */
    public static PlanPicture of(String title, BufferSet set, long[] offsets) {
        return of(title, set, offsets, Integer::toString);
    }

    /** One panel of a placement problem, each buffer labelled as {@code label} names its id. */
    public static PlanPicture of(String title, BufferSet set, long[] offsets, IntFunction<String> label) {
        if (offsets.length != set.buffers().size()) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + set.buffers().size() + " buffers");
        }
        List<Box> boxes = new ArrayList<>();
        for (int i = 0; i < offsets.length; i++) {
            BufferSet.Buffer b = set.buffers().get(i);
            boxes.add(new Box(label.apply(b.id()), b.size(), offsets[i], b.first(), b.last(), null));
        }
        long arena = set.arenaBytes(offsets);
        BufferSet.Peak peak = set.peak();
        String panelTitle = Numbers.count(boxes.size(), "buffer") + " over " + Numbers.count(set.steps(), "step");
        return new PlanPicture(title, List.of(new Panel(panelTitle, summary(arena, peak.bytes()), set.steps(), arena,
                peak.bytes(), boxes, peak(peak, "step " + peak.step(), label, id -> ""))));
    }

    private static Panel panel(Subgraph subgraph, SubgraphPlan plan, String planner, Graph.Options options) {
        List<Box> boxes = new ArrayList<>();
        int aliases = 0;
        int persistent = 0;
        for (Placement p : plan.placements()) {
            if (p.arena() == Arena.PERSISTENT) {
                persistent += p.hasMemory() ? 1 : 0;
            } else if (p.hasMemory() && p.bytes() > 0 && p.first() >= 0) {
                String root = p.aliasOf() >= 0 ? label(subgraph.tensor(p.aliasOf())) : null;
                aliases += root != null ? 1 : 0;
                boxes.add(new Box(label(subgraph.tensor(p.tensor())), p.bytes(), p.offset(), p.first(), p.last(),
                        root));
            }
        }
        BufferSet.Peak peak = BufferSet.of(subgraph, options).peak();
        long lowerBound = peak.bytes();
        String title = "subgraph " + subgraph.index() + (subgraph.name() == null || subgraph.name().isEmpty() ? ""
                : " (" + subgraph.name() + ")") + ": " + Numbers.count(subgraph.nodes().size(), "node") + ", "
                + Numbers.count(boxes.size(), "rw tensor") + (aliases > 0 ? ", " + aliases + " of them in place" : "");
        String caption = "planner " + planner + ": " + summary(plan.arenaBytes(), lowerBound) + "; " + (persistent == 0
                ? "no persistent tensors" : "persistent arena " + Numbers.size(plan.persistentBytes()) + " for "
                + Numbers.count(persistent, "tensor") + ", not drawn");
        String where = peak.step() < subgraph.nodes().size() ? node(subgraph, peak.step()) : "node " + peak.step();
        return new Panel(title, caption, Math.max(subgraph.nodes().size(), 1), plan.arenaBytes(), lowerBound, boxes,
                peak(peak, where, t -> label(subgraph.tensor(t)), t -> producer(subgraph, t)));
    }

    /** The buffers live at the peak, largest first, labelled and attributed by their ids. */
    private static Peak peak(BufferSet.Peak peak, String where, IntFunction<String> label,
                             IntFunction<String> producer) {
        List<Live> live = peak.live().stream()
                .map(b -> new Live(label.apply(b.id()), b.size(), b.first(), b.last(), producer.apply(b.id())))
                .sorted(Comparator.comparingLong(Live::bytes).reversed()).toList();
        return new Peak(peak.step(), where, live);
    }

    /** What writes a tensor: the node it is an output or a temporary of, else a graph input or a variable. */
    private static String producer(Subgraph subgraph, int tensor) {
        for (int n = 0; n < subgraph.nodes().size(); n++) {
            Node node = subgraph.nodes().get(n);
            if (contains(node.outputs(), tensor)) {
                return node(subgraph, n);
            }
            if (contains(node.temporaries(), tensor)) {
                return node(subgraph, n) + ", temporary";
            }
        }
        return contains(subgraph.inputs(), tensor) ? "graph input"
                : contains(subgraph.variables(), tensor) ? "variable" : "";
    }

    private static String node(Subgraph subgraph, int n) {
        return "node " + n + " (" + subgraph.nodes().get(n).op() + ")";
    }

    private static boolean contains(int[] tensors, int tensor) {
        for (int t : tensors) {
            if (t == tensor) {
                return true;
            }
        }
        return false;
    }

    private static String summary(long arena, long lowerBound) {
        return "arena " + Numbers.size(arena) + ", lower bound " + Numbers.size(lowerBound) + ", gap "
                + Numbers.percent(LowerBound.gap(arena, lowerBound));
    }


    /** The tensor's name, or its index where the model gives none. */
    private static String label(Tensor tensor) {
        return tensor.name() == null || tensor.name().isEmpty() ? "#" + tensor.index() : tensor.name();
    }
}
