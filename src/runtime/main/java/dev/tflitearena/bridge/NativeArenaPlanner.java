package dev.tflitearena.bridge;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.bridge.presets.ReadableMemory;
import dev.tflitearena.bridge.presets.TfLiteStatus;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.tensorflowlite.MemoryPlanner;
import org.bytedeco.tensorflowlite.Subgraph;

import java.util.Arrays;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * The interpreter's own ArenaPlanner of one subgraph, so that TFLite's planning can be timed alone, without
 * preparing the ops again. The Subgraph keeps it in a private {@code unique_ptr<MemoryPlanner>} that no API
 * exposes, so it is found by reading the Subgraph object: among its words, a pointer into anonymous readable
 * memory (see {@link ReadableMemory}) to an object whose vtable pointer is ArenaPlanner's and whose first
 * field is this subgraph's {@code TfLiteContext*}. The find is then checked through the planner's own API:
 * {@code GetAllocInfo} must report what {@code Subgraph::GetMemoryAllocInfo} reports. Anything short of
 * exactly one such object is refused with the reason, never guessed.
 */
public final class NativeArenaPlanner {
    private static final String VTABLE = "_ZTVN6tflite12ArenaPlannerE";
    /** The Itanium C++ ABI's vtable opens with offset-to-top and the RTTI pointer; objects point past both. */
    private static final long VTABLE_HEADER = 2L * Long.BYTES;

    private final NativeInterpreter interpreter;
    /** Names the model and subgraph in messages. */
    private final String where;
    private final MemoryPlanner planner;
    private final int lastNode;

    private NativeArenaPlanner(NativeInterpreter interpreter, String where, MemoryPlanner planner, int lastNode) {
        this.interpreter = interpreter;
        this.where = where;
        this.planner = planner;
        this.lastNode = lastNode;
    }

    /** Finds the planner of a subgraph whose tensors are allocated; refuses, saying why, when it cannot. */
    public static NativeArenaPlanner locate(NativeInterpreter interpreter, int subgraphIndex) {
        String where = interpreter.model().path() + ": subgraph " + subgraphIndex;
        if (subgraphIndex < 0 || subgraphIndex >= interpreter.live().subgraphs_size()) {
            throw new IllegalArgumentException(where + " does not exist");
        }
        Subgraph subgraph = interpreter.live().subgraph(subgraphIndex);
        if (Loader.sizeof(Pointer.class) != Long.BYTES) {
            throw new NativeException(where + ": the ArenaPlanner locator reads 64-bit words only");
        }
        Pointer vtable = Loader.addressof(VTABLE);
        if (vtable == null || vtable.isNull()) {
            throw new NativeException(where + ": the native library does not export " + VTABLE
                    + ", so its ArenaPlanner cannot be recognised");
        }
        long vptr = vtable.address() + VTABLE_HEADER;
        long context = subgraph.context().address();
        ReadableMemory memory = ReadableMemory.now();
        // The presets are compiled against TFLite's headers: this is the real size of the object.
        int words = Math.toIntExact(Loader.sizeof(Subgraph.class) / Long.BYTES);
        if (words <= 0 || !memory.holds(subgraph.address(), (long) words * Long.BYTES)) {
            throw new NativeException(where + ": the Subgraph object is not in anonymous readable memory");
        }
        long[] head = {vptr, context};
        long[] found = Arrays.stream(memory.words(subgraph.address(), words))
                .filter(p -> p % Long.BYTES == 0 && memory.holds(p, (long) head.length * Long.BYTES))
                .filter(p -> Arrays.equals(memory.words(p, head.length), head))
                .distinct().toArray();
        if (found.length == 0) {
            throw new NativeException(where + " has no ArenaPlanner (TFLite creates it in the first"
                    + " AllocateTensors()), or its Subgraph object is laid out in a way the locator does not know");
        }
        if (found.length > 1) {
            throw new NativeException(where + ": " + found.length + " objects look like its ArenaPlanner;"
                    + " refusing to guess");
        }
        int lastNode = NativeTensors.ints(subgraph.execution_plan()).length - 1;
        NativeArenaPlanner located = new NativeArenaPlanner(interpreter, where,
                new MemoryPlanner(ReadableMemory.at(found[0])), lastNode);
        MemoryInfo planned = located.allocInfo();
        MemoryInfo reported;
        try (Subgraph.SubgraphAllocInfo info = new Subgraph.SubgraphAllocInfo()) {
            subgraph.GetMemoryAllocInfo(info);
            reported = new MemoryInfo(info.arena_size(), info.arena_persist_size());
        }
        if (!planned.equals(reported)) {
            throw new NativeException(where + ": the object found reports " + planned + ", the subgraph "
                    + reported + "; it is not this subgraph's ArenaPlanner");
        }
        return located;
    }

    /**
     * Plans the whole subgraph again, as TFLite's first {@code AllocateTensors()} does once the ops are
     * prepared: reset, {@code PlanAllocations()}, {@code ExecuteAllocations(0, last node)}. The plan, and so
     * every tensor's address, comes out as it was.
     */
    public void replan() {
        interpreter.live(); // the planner dies with the interpreter: refuse once it is closed
        check(planner.ResetAllocations(), "ResetAllocations");
        check(planner.PlanAllocations(), "PlanAllocations");
        check(planner.ExecuteAllocations(0, lastNode), "ExecuteAllocations");
    }

    /** {@link TfLiteStatus#check}, with the message built only on failure: {@link #replan()} is timed. */
    private void check(int status, String call) {
        if (status != kTfLiteOk) {
            TfLiteStatus.check(status, where + ": " + call);
        }
    }

    /** The planner's arena and persistent arena sizes, from its {@code GetAllocInfo}. */
    public MemoryInfo allocInfo() {
        interpreter.live(); // as in replan()
        try (SizeTPointer arena = new SizeTPointer(1); SizeTPointer persistent = new SizeTPointer(1)) {
            planner.GetAllocInfo(arena, persistent);
            return new MemoryInfo(arena.get(), persistent.get());
        }
    }
}
