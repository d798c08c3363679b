package dev.tflitearena.nativelayer;

/**
 * A TFLite profiler that times every node a run invokes (native/op_profiler.cc): given to an interpreter
 * ({@code Interpreter::SetProfiler}), it keeps each operator invocation's node, subgraph, op name and
 * nanoseconds in an array made with it, so a run allocates nothing; invocations past its capacity are counted
 * as dropped. It needs the native layer loaded only: it reads no TFLite struct. Not thread-safe: one run at a
 * time, and {@link #close()} once no interpreter holds it.
 */
public final class OpProfiler implements AutoCloseable {
    private long address;

    /** A profiler with room for {@code capacity} invocations between two {@link #clear()}s. */
    public OpProfiler(int capacity) {
        NativeLayer.requireLoaded("per-op profiling");
        if (capacity < 1) {
            throw new IllegalArgumentException("a profiler needs room for at least 1 invocation; got " + capacity);
        }
        address = create(capacity);
    }

    /** Its address as a {@code tflite::Profiler*}, for {@code Interpreter::SetProfiler}. */
    public long address() {
        checkOpen();
        return address;
    }

    /** Forgets the invocations kept so far. */
    public void clear() {
        checkOpen();
        clear(address);
    }

    /**
     * The invocations since the last {@link #clear()}, in the order they began: a long[] of node, subgraph and
     * nanoseconds (-1 for one not ended) per invocation, then the count dropped; and a String[] of their ops.
     */
    public Object[] events() {
        checkOpen();
        Object[] events = events(address);
        if (events == null) {
            throw new OutOfMemoryError("the profile's events do not fit in the Java heap");
        }
        return events;
    }

    @Override
    public void close() {
        if (address != 0) {
            free(address);
            address = 0;
        }
    }

    private void checkOpen() {
        if (address == 0) {
            throw new IllegalStateException("the profiler is closed");
        }
    }

    private static native long create(int capacity);

    private static native void clear(long address);

    private static native Object[] events(long address);

    private static native void free(long address);
}
