package dev.tflitearena.bridge;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.PlanValidator;
import dev.tflitearena.plan.SubgraphPlan;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * The Java arena: one Java-owned native buffer holding a validated plan. Each subgraph gets a region for its
 * rw arena, then one for its persistent arena, each starting on a 64-byte boundary, as TFLite requires of a
 * custom allocation. Interpreters that point into it keep it alive until they close.
 */
public final class JavaArena extends SharedNativeResource {
    /** TFLite's kDefaultTensorAlignment: SetCustomAllocationForTensor refuses less aligned memory. */
    public static final int ALIGNMENT = 64;

    private final Graph graph;
    private final Plan plan;
    private final long[] rwBase;
    private final long[] persistentBase;
    private final long size;
    private final Pointer allocation;
    private final BytePointer buffer;

    private JavaArena(Graph graph, Plan plan, long[] rwBase, long[] persistentBase, long size) {
        this.graph = graph;
        this.plan = plan;
        this.rwBase = rwBase;
        this.persistentBase = persistentBase;
        this.size = size;
        this.allocation = Pointer.malloc(size + ALIGNMENT);
        if (allocation == null || allocation.isNull()) {
            throw new NativeException("cannot allocate a Java arena of " + size + " bytes");
        }
        this.buffer = aligned(allocation);
    }

    /** The first {@link #ALIGNMENT}-aligned address of an allocation {@code ALIGNMENT} bytes larger than needed. */
    static BytePointer aligned(Pointer allocation) {
        long misalignment = allocation.address() % ALIGNMENT;
        // getPointer(i) moves the address itself, leaving position 0: address() is then the pointer's value.
        return new BytePointer(allocation).getPointer(misalignment == 0 ? 0 : ALIGNMENT - misalignment);
    }

    /** Validates the plan against the graph, then allocates the buffer it needs; an invalid plan is refused. */
    public static JavaArena allocate(Graph graph, Plan plan) {
        PlanValidator.validate(graph, plan, ALIGNMENT);
        return allocateUnvalidated(graph, plan);
    }

    /** For tests that prove a broken plan is caught at run time too; everything else goes through the validator. */
    static JavaArena allocateUnvalidated(Graph graph, Plan plan) {
        int subgraphs = plan.subgraphs().size();
        long[] rwBase = new long[subgraphs];
        long[] persistentBase = new long[subgraphs];
        long end = 0;
        for (SubgraphPlan sp : plan.subgraphs()) {
            rwBase[sp.subgraph()] = alignUp(end);
            persistentBase[sp.subgraph()] = alignUp(rwBase[sp.subgraph()] + sp.arenaBytes());
            end = persistentBase[sp.subgraph()] + sp.persistentBytes();
        }
        return new JavaArena(graph, plan, rwBase, persistentBase, end);
    }

    public Graph graph() {
        return graph;
    }

    public Plan plan() {
        return plan;
    }

    /** Bytes of the buffer: every subgraph's rw and persistent regions with their alignment padding. */
    public long size() {
        return size;
    }

    /** Bytes the plan's rw arenas take, summed over subgraphs. */
    public long arenaBytes() {
        return plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum();
    }

    /** Bytes the plan's persistent arenas take, summed over subgraphs. */
    public long persistentBytes() {
        return plan.subgraphs().stream().mapToLong(SubgraphPlan::persistentBytes).sum();
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

    static long alignUp(long offset) {
        long remainder = offset % ALIGNMENT;
        return remainder == 0 ? offset : offset + ALIGNMENT - remainder;
    }

    @Override
    protected void free() {
        Pointer.free(allocation);
    }

    @Override
    protected String describe() {
        return "Java arena of plan '" + plan.planner() + "'";
    }
}
