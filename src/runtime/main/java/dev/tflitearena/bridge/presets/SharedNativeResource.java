package dev.tflitearena.bridge.presets;

/**
 * Native memory that interpreters point into. Its owner may close it at any time; the memory itself is freed
 * only once the last interpreter using it has closed, so TFLite never points at freed memory.
 */
public abstract class SharedNativeResource implements AutoCloseable {
    private int users;
    private boolean closed;
    private boolean freed;

    /** Registers one more user; fails once the owner has closed the resource. */
    public final synchronized void retain() {
        if (closed) {
            throw new IllegalStateException(describe() + " is closed");
        }
        users++;
    }

    public final synchronized void release() {
        users--;
        freeIfUnused();
    }

    public final synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public final synchronized void close() {
        closed = true;
        freeIfUnused();
    }

    private void freeIfUnused() {
        if (closed && users == 0 && !freed) {
            freed = true;
            free();
        }
    }

    /** Frees the native memory; called once, when closed and unused. */
    protected abstract void free();

    /** Names the resource in error messages. */
    protected abstract String describe();
}
