package dev.tflitearena.bridge.handover;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.SharedNativeResource;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.ValidatedPlan;
import dev.tflitearena.plan.group.GroupPlan;
import dev.tflitearena.plan.group.GroupPlanner;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

import java.util.ArrayList;
import java.util.List;

/**
 * The Java arena: one Java-owned native buffer holding a validated plan. Each subgraph gets a region for its
 * rw arena, then one for its persistent arena, each starting on a 64-byte boundary, as TFLite requires of a
 * custom allocation. Interpreters that point into it keep it alive until they close. The arenas of a group
 * ({@link #allocateGroup}) are views of one buffer, which is freed once every one of them is.
 */
public final class JavaArena extends SharedNativeResource {
    /** TFLite's kDefaultTensorAlignment: SetCustomAllocationForTensor refuses less aligned memory. */
    public static final int ALIGNMENT = 64;
    /** A byte that makes NaN of every float and is no valid small integer: stale data shows up. */
    public static final byte POISON = (byte) 0xFF;

    private final Graph graph;
    private final Plan plan;
    private final HandoverPlan handover;
    private final long[] rwBase;
    private final long[] persistentBase;
    private final Memory memory;
    private final BytePointer buffer;

    private JavaArena(Graph graph, Plan plan, HandoverPlan handover, Layout layout, Memory memory) {
        this.graph = graph;
        this.plan = plan;
        this.handover = handover;
        this.rwBase = layout.rwBase;
        this.persistentBase = layout.persistentBase;
        memory.retain();
        this.memory = memory;
        this.buffer = memory.buffer;
    }

    /** The first {@link #ALIGNMENT}-aligned address of an allocation {@code ALIGNMENT} bytes larger than needed. */
    public static BytePointer aligned(Pointer allocation) {
        long misalignment = allocation.address() % ALIGNMENT;
        // getPointer(i) moves the address itself, leaving position 0: address() is then the pointer's value.
        return new BytePointer(allocation).getPointer(misalignment == 0 ? 0 : ALIGNMENT - misalignment);
    }

    /** Validates the plan against the graph, then allocates the buffer it needs; an invalid plan is refused. */
    public static JavaArena allocate(Graph graph, Plan plan) {
        // A template used once: a plan laid out again and again keeps its own (see ArenaTemplate).
        return ArenaTemplate.of(ValidatedPlan.of(graph, plan, ALIGNMENT)).allocate();
    }

    /** For tests that prove a broken plan is caught at run time too; everything else goes through the validator. */
    static JavaArena allocateUnvalidated(Graph graph, Plan plan) {
        return allocate(graph, plan, HandoverPlan.of(graph, plan));
    }

    /** The arena of a plan validated before, with what the handover derives from it (see {@link ArenaTemplate}). */
    static JavaArena allocate(Graph graph, Plan plan, HandoverPlan handover) {
        Layout layout = Layout.of(plan, 0, false);
        Memory memory = new Memory(layout.end);
        try {
            return new JavaArena(graph, plan, handover, layout, memory);
        } finally {
            memory.close();
        }
    }

    /**
     * Validates the group's plan ({@link GroupPlanner#validate}), then allocates one buffer: the region the
     * models' primary subgraphs share, then each model's own regions. Returns each model's arena, in group
     * order; interpreters of different models of the group must never run at the same time.
     */
    public static List<JavaArena> allocateGroup(List<Graph> graphs, GroupPlan group) {
        GroupPlanner.validate(graphs, group, ALIGNMENT);
        List<Layout> layouts = new ArrayList<>();
        long end = group.sharedBytes();
        for (Plan plan : group.models()) {
            Layout layout = Layout.of(plan, end, true);
            layouts.add(layout);
            end = layout.end;
        }
        Memory memory = new Memory(end);
        try {
            List<JavaArena> arenas = new ArrayList<>();
            for (int m = 0; m < graphs.size(); m++) {
                Graph graph = graphs.get(m);
                Plan plan = group.models().get(m);
                arenas.add(new JavaArena(graph, plan, HandoverPlan.of(graph, plan), layouts.get(m), memory));
            }
            return arenas;
        } finally {
            memory.close();
        }
    }

    public Graph graph() {
        return graph;
    }

    public Plan plan() {
        return plan;
    }

    HandoverPlan handover() {
        return handover;
    }

    /**
     * Bytes of the buffer: every subgraph's rw and persistent regions with their alignment padding (of a group,
     * every model's).
     */
    public long size() {
        return memory.size;
    }

    /** Bytes the plan's rw arenas take, summed over subgraphs. */
    public long arenaBytes() {
        long bytes = 0;
        for (SubgraphPlan sp : plan.subgraphs()) {
            bytes += sp.arenaBytes();
        }
        return bytes;
    }

    /** Bytes the plan's persistent arenas take, summed over subgraphs. */
    public long persistentBytes() {
        long bytes = 0;
        for (SubgraphPlan sp : plan.subgraphs()) {
            bytes += sp.persistentBytes();
        }
        return bytes;
    }

    /** Where a placed tensor's memory is, as a native address. */
    long address(int subgraph, Placement placement) {
        long base = placement.arena() == Arena.RW ? rwBase[subgraph] : persistentBase[subgraph];
        return buffer.address() + base + placement.offset();
    }

    /**
     * Fills every subgraph's rw region with {@code value}, as a test that no tensor is read before it is
     * written. The persistent regions keep what kernels cached there.
     */
    public void poisonActivations(byte value) {
        checkOpen();
        for (SubgraphPlan sp : plan.subgraphs()) {
            Pointer.memset(buffer.getPointer(rwBase[sp.subgraph()]), value, sp.arenaBytes());
        }
    }

    private void checkOpen() {
        if (isClosed()) {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    public static long alignUp(long offset) {
        long remainder = offset % ALIGNMENT;
        return remainder == 0 ? offset : offset + ALIGNMENT - remainder;
    }

    @Override
    protected void free() {
        memory.release();
    }

    @Override
    protected String describe() {
        return "Java arena of plan '" + plan.planner() + "'";
    }

    /** Where each subgraph's regions start in the buffer, and where the last one ends. */
    private record Layout(long[] rwBase, long[] persistentBase, long end) {

        /**
         * The plan's regions from {@code start} on; with {@code sharedPrimary} the primary subgraph's rw arena is
         * the group's shared region at the buffer's start, and gets no region of its own.
         */
        static Layout of(Plan plan, long start, boolean sharedPrimary) {
            int subgraphs = plan.subgraphs().size();
            long[] rwBase = new long[subgraphs];
            long[] persistentBase = new long[subgraphs];
            long end = start;
            for (SubgraphPlan sp : plan.subgraphs()) {
                boolean shared = sharedPrimary && sp.subgraph() == 0;
                rwBase[sp.subgraph()] = shared ? 0 : alignUp(end);
                persistentBase[sp.subgraph()] = alignUp(shared ? end : rwBase[sp.subgraph()] + sp.arenaBytes());
                end = persistentBase[sp.subgraph()] + sp.persistentBytes();
            }
            return new Layout(rwBase, persistentBase, end);
        }
    }

    /** The malloc'd buffer behind one arena, or a group's: freed once its arenas are. */
    private static final class Memory extends SharedNativeResource {
        private final long size;
        private final Pointer allocation;
        private final BytePointer buffer;

        Memory(long size) {
            this.size = size;
            this.allocation = Pointer.malloc(size + ALIGNMENT);
            if (allocation == null || allocation.isNull()) {
                throw new NativeException("cannot allocate a Java arena of " + size + " bytes");
            }
            this.buffer = aligned(allocation);
        }

        @Override
        protected void free() {
            Pointer.free(allocation);
        }

        @Override
        protected String describe() {
            return "Java arena buffer of " + size + " bytes";
        }
    }
}
