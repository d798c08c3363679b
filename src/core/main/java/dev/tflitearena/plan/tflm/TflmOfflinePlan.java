package dev.tflitearena.plan.tflm;

import dev.tflitearena.graph.tflite.OfflineMemoryAllocation;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.place.Placer;
import dev.tflitearena.plan.place.TflmGreedyPlacer;
import dev.tflitearena.plan.search.OptimalPlacer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plan for TFLM's arena made ahead of time, to be baked into the model as its {@link OfflineMemoryAllocation}:
 * every tensor that needs allocating placed by a placer under TFLM's lifetimes and alignment
 * ({@link TflmAllocations}), beside what TFLM's own greedy planner would need for the same buffers and the lower
 * bound. TFLM keeps the offsets as given and plans the rest (kernels' scratch buffers, variables) around them.
 *
 * @param offsets          per tensor id, its offset, or {@link OfflineMemoryAllocation#ONLINE}
 * @param arenaBytes       the highest end of a baked buffer
 * @param greedyArenaBytes what TFLM's GreedyMemoryPlanner needs for the same buffers, planned online
 * @param lowerBoundBytes  what no placement can beat: the fullest step, or more where the exact search proved it
 * @param provenOptimal    the arena equals the lower bound
 */
public record TflmOfflinePlan(TflmAllocations allocations, String planner, long[] offsets, long arenaBytes,
                              long greedyArenaBytes, long lowerBoundBytes, boolean provenOptimal) {
    /** The version the metadata carries; TFLM reads none, Vela writes 1. */
    public static final int VERSION = 1;

    /** Places the buffers with {@code placer}, started from TFLM's greedy plan where the placer can improve on one. */
    public static TflmOfflinePlan of(TflmAllocations allocations, Placer placer) {
        BufferSet buffers = allocations.buffers();
        long[] greedy = new TflmGreedyPlacer().place(buffers).offsets();
        long greedyArena = buffers.arenaBytes(greedy);
        long[] placed;
        long bound;
        if (placer instanceof OptimalPlacer optimal) {
            OptimalPlacer.Result result = optimal.solve(buffers, greedy);
            placed = result.offsets();
            bound = result.lowerBound();
        } else {
            placed = placer.place(buffers, greedy).offsets();
            bound = buffers.lowerBound();
        }
        buffers.validate(placed);
        long arena = buffers.arenaBytes(placed);
        long[] offsets = new long[allocations.entries().size()];
        Arrays.fill(offsets, OfflineMemoryAllocation.ONLINE);
        for (int i = 0; i < placed.length; i++) {
            if (placed[i] > Integer.MAX_VALUE) {
                throw new InvalidPlanException("tensor " + buffers.buffers().get(i).id() + " at offset " + placed[i]
                        + ": TFLM's offline plan holds int32 offsets");
            }
            offsets[buffers.buffers().get(i).id()] = placed[i];
        }
        return new TflmOfflinePlan(allocations, placer.name(), offsets, arena, greedyArena, bound, arena == bound);
    }

    /** The tensors given an offset. */
    public int tensorsBaked() {
        return (int) Arrays.stream(offsets).filter(o -> o != OfflineMemoryAllocation.ONLINE).count();
    }

    /** The tensors without an offset that are not constants: what TFLM allocates itself, or nothing does. */
    public List<TflmAllocations.Entry> tensorsOnline() {
        return allocations.entries().stream()
                .filter(e -> !e.needsAllocating() && e.online() != TflmAllocations.Online.CONSTANT).toList();
    }

    /** The constants, which TFLM reads from the model. */
    public int tensorsConstant() {
        return (int) allocations.entries().stream().filter(e -> e.online() == TflmAllocations.Online.CONSTANT).count();
    }

    /** The offsets per subgraph, by tensor index, as the metadata lists them. */
    public List<int[]> offsetsBySubgraph() {
        List<int[]> bySubgraph = new ArrayList<>();
        allocations.model().subgraphs().forEach(s -> bySubgraph.add(new int[s.tensors().size()]));
        for (TflmAllocations.Entry e : allocations.entries()) {
            bySubgraph.get(e.subgraph())[e.tensor()] = (int) offsets[e.id()];
        }
        return bySubgraph;
    }

    /** The metadata's bytes: version, subgraph count, offset count, then an offset or -1 per tensor. */
    public byte[] metadata() {
        return OfflineMemoryAllocation.bytes(VERSION, offsetsBySubgraph());
    }
}
