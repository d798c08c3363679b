package dev.tflitearena.plan.place;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.LowerBound;

import java.util.ArrayList;
import java.util.List;

/**
 * The placement problem every strategy solves: buffers of given sizes, each live over an inclusive range of
 * time steps, to be given offsets (multiples of {@code alignment}) so that no two buffers live at the same
 * step share a byte, with the highest end as low as possible. From a subgraph it is the rw arena under
 * TFLite's lifetimes, one buffer per tensor that owns memory (in-place aliases ride on their root).
 *
 * <p>{@code clock}, when not null, says how long each step lasts in the source's own time: the time each step
 * starts at, then the end of the last (steps + 1 values, rising), as a MiniMalloc CSV's times renumbered to
 * steps keep them. The placement does not depend on it; only the exact search's preorders do (a buffer's
 * width is a time, not a count of steps).
 */
public record BufferSet(List<Buffer> buffers, int steps, int alignment, List<Long> clock) {

    /** One buffer: {@code id} names it to the caller (a tensor index, a CSV id); steps first..last inclusive. */
    public record Buffer(int id, long size, int first, int last) {
        public boolean overlapsInTime(Buffer other) {
            return first <= other.last && other.first <= last;
        }
    }

    public BufferSet(List<Buffer> buffers, int steps, int alignment) {
        this(buffers, steps, alignment, null);
    }

    public BufferSet {
        buffers = List.copyOf(buffers);
        if (clock != null) {
            clock = List.copyOf(clock);
            if (clock.size() != steps + 1) {
                throw new IllegalArgumentException("a clock of " + steps + " steps needs " + (steps + 1)
                        + " times, got " + clock.size());
            }
        }
        if (alignment < 1) {
            throw new IllegalArgumentException("alignment must be at least 1, got " + alignment);
        }
        for (Buffer b : buffers) {
            if (b.size < 0 || b.first < 0 || b.last < b.first || b.last >= steps) {
                throw new IllegalArgumentException("buffer " + b.id + " has size " + b.size + " and steps "
                        + b.first + ".." + b.last + ", outside 0.." + (steps - 1));
            }
        }
    }

    /** How long b is live in the source's time: its steps, or with a clock the time from its first to its end. */
    public long duration(Buffer b) {
        return clock == null ? b.last - b.first + 1 : clock.get(b.last + 1) - clock.get(b.first);
    }

    /** The rw arena of a subgraph: tensors that TFLite would give memory of their own, by tensor index. */
    public static BufferSet of(Subgraph subgraph, Graph.Options options) {
        return of(Lifetimes.of(subgraph, options), options.tensorAlignment());
    }

    static BufferSet of(Lifetimes lifetimes, int alignment) {
        List<Buffer> buffers = new ArrayList<>();
        for (Tensor tensor : lifetimes.subgraph().tensors()) {
            int t = tensor.index();
            if (tensor.allocation() == Allocation.ARENA_RW && tensor.bytes() > 0
                    && lifetimes.allocNode(t) != Lifetimes.NOT_ASSIGNED && lifetimes.aliasRoot(t) < 0) {
                buffers.add(new Buffer(t, tensor.bytes(), lifetimes.allocNode(t), lifetimes.lastNode(t)));
            }
        }
        return new BufferSet(buffers, Math.max(lifetimes.nodeCount(), 1), alignment);
    }

    /**
     * The step at which the most bytes are live (the first, on a tie) and the buffers live there, in the
     * set's order: what the lower bound is made of.
     */
    public record Peak(int step, long bytes, List<Buffer> live) {
        public Peak {
            live = List.copyOf(live);
        }
    }

    /** The most bytes live at one step: no placement's arena is smaller. */
    public long lowerBound() {
        return peak().bytes();
    }

    public Peak peak() {
        long[] sizes = new long[buffers.size()];
        int[] first = new int[buffers.size()];
        int[] last = new int[buffers.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = buffers.get(i).size;
            first[i] = buffers.get(i).first;
            last[i] = buffers.get(i).last;
        }
        int step = LowerBound.peakStep(sizes, first, last, steps);
        List<Buffer> live = buffers.stream().filter(b -> b.size > 0 && b.first <= step && step <= b.last).toList();
        return new Peak(step, live.stream().mapToLong(Buffer::size).sum(), live);
    }

    /** The arena a placement needs: the highest end of any buffer. */
    public long arenaBytes(long[] offsets) {
        long top = 0;
        for (int i = 0; i < offsets.length; i++) {
            top = Math.max(top, offsets[i] + buffers.get(i).size);
        }
        return top;
    }

    /** Checks a placement: aligned, not negative, no two buffers live together sharing a byte. */
    public void validate(long[] offsets) {
        validate(offsets, id -> "buffer " + id);
    }

    /** As {@link #validate(long[])}, the refusal naming a buffer as {@code name} does given its id. */
    public void validate(long[] offsets, java.util.function.IntFunction<String> name) {
        if (offsets.length != buffers.size()) {
            throw new InvalidPlanException("placement has " + offsets.length + " offsets for " + buffers.size()
                    + " buffers");
        }
        for (int i = 0; i < offsets.length; i++) {
            Buffer a = buffers.get(i);
            if (offsets[i] < 0 || offsets[i] % alignment != 0) {
                throw new InvalidPlanException(name.apply(a.id) + " at offset " + offsets[i]
                        + ", which is negative or not a multiple of " + alignment);
            }
            for (int j = i + 1; j < offsets.length; j++) {
                Buffer b = buffers.get(j);
                if (a.overlapsInTime(b) && offsets[i] < offsets[j] + b.size && offsets[j] < offsets[i] + a.size
                        && a.size > 0 && b.size > 0) {
                    throw new InvalidPlanException(name.apply(a.id) + " (bytes " + offsets[i] + ".."
                            + (offsets[i] + a.size) + ", steps " + a.first + ".." + a.last + ") and " + name.apply(b.id)
                            + " (bytes " + offsets[j] + ".." + (offsets[j] + b.size) + ", steps " + b.first + ".."
                            + b.last + ") share memory while both live");
                }
            }
        }
    }
}
