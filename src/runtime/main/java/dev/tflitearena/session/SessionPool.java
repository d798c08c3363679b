package dev.tflitearena.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Serves concurrent callers: each call in flight has a session of its own, one of the pool's sessions, all
 * built from one recipe (one Java plan for all). A call waits up to the timeout for a free one. The pool can
 * grow ({@link #addSessions}) and shrink ({@link #removeSessions}) while it serves, and reshape an input of
 * every session ({@link #resizeInput}); these build interpreters, so they need the model open, as
 * {@link Session#resizeInput} does. A session leaves the pool only when no call is on it, and what it shares
 * with the others (the region of constant-derived tensors, XNNPACK's weights cache) is freed only when the
 * last interpreter pointing into it has closed. {@link #close()} waits for the calls in flight, then closes
 * every session; calls after it throw {@link IllegalStateException}.
 */
public final class SessionPool implements AutoCloseable {
    private final Duration timeout;
    /** One per idle session not yet claimed: a call that holds one is sure to find a session in {@link #idle}. */
    private final Semaphore permits = new Semaphore(0, true);
    private final Queue<Session> idle = new ConcurrentLinkedQueue<>();
    /** Every session, idle or in a call; changed under this pool's monitor only, as are recipe and size. */
    private final List<Session> sessions = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final RunStats stats = new RunStats();
    private InterpreterRecipe recipe;
    private volatile int size;
    private volatile List<TensorInfo> inputs;
    private volatile List<TensorInfo> outputs;

    SessionPool(InterpreterRecipe recipe, int size, Duration timeout) {
        if (size < 1) {
            throw new IllegalArgumentException("a pool needs at least one session, got " + size);
        }
        this.timeout = timeout;
        this.recipe = recipe;
        serve(build(recipe, size));
    }

    /** {@link Session#inputs()} of the pool's sessions, which are alike. */
    public List<TensorInfo> inputs() {
        return inputs;
    }

    /** {@link Session#outputs()} of the pool's sessions, which are alike. */
    public List<TensorInfo> outputs() {
        return outputs;
    }

    /** The number of sessions, idle or in a call. */
    public int size() {
        return size;
    }

    /**
     * The pool's calls so far: runs, failures, latency percentiles, and the calls that waited for a session
     * (how many, how long in all, how many timed out). The sessions' own counts die with them; these do not.
     */
    public Metrics metrics() {
        return stats.snapshot();
    }

    /** {@link Session#run(Object...)} on a free session. */
    public Outputs run(Object... values) throws InterruptedException, TimeoutException {
        return call(session -> session.run(values));
    }

    /** {@link Session#run(Map)} on a free session. */
    public Outputs run(Map<String, ?> values) throws InterruptedException, TimeoutException {
        return call(session -> session.run(values));
    }

    /** {@link Session#run(Map, Set)} on a free session. */
    public Outputs run(Map<String, ?> values, Set<String> outputNames) throws InterruptedException, TimeoutException {
        return call(session -> session.run(values, outputNames));
    }

    /** {@link Session#runSignature(String, Map)} on a free session. */
    public Outputs runSignature(String key, Map<String, ?> values) throws InterruptedException, TimeoutException {
        return call(session -> session.runSignature(key, values));
    }

    /** Builds {@code count} more sessions of the pool's current shapes; each serves once all are built. */
    public synchronized void addSessions(int count) {
        checkOpen();
        if (count < 1) {
            throw new IllegalArgumentException("sessions are added one or more at a time, got " + count);
        }
        serve(build(recipe, count));
    }

    /**
     * Closes {@code count} sessions, waiting for calls in flight to leave them free; at least one session stays.
     * Calls go on meanwhile on the sessions that stay.
     */
    public synchronized void removeSessions(int count) {
        checkOpen();
        if (count < 1 || count >= size) {
            throw new IllegalArgumentException("cannot remove " + count + " of the pool's " + size + " sessions: "
                    + "one or more, and at least one must stay");
        }
        permits.acquireUninterruptibly(count);
        for (int i = 0; i < count; i++) {
            // Each permit held stands for an idle session no call has claimed.
            Session session = idle.remove();
            sessions.remove(session);
            session.close();
        }
        size -= count;
    }

    /**
     * Gives an input of every session a new shape, as {@link Session#resizeInput} does: a Java planner plans
     * once for the whole pool. Waits for the calls in flight, holds new calls until done, and builds every new
     * session before it closes the old ones, so that a shape the model refuses leaves the pool as it was (for
     * that while, the pool holds both).
     */
    public synchronized void resizeInput(int index, int... shape) {
        checkOpen();
        Session.checkIndex(index, inputs, "input");
        InterpreterRecipe resized = recipe.resized(index, shape);
        int all = size;
        permits.acquireUninterruptibly(all);
        try {
            List<Session> built = build(resized, all);
            List<Session> old = List.copyOf(sessions);
            sessions.clear();
            idle.clear();
            sessions.addAll(built);
            idle.addAll(built);
            old.forEach(Session::close);
            recipe = resized;
            describe(built.get(0));
        } finally {
            permits.release(all);
        }
    }

    public synchronized void resizeInput(String name, int... shape) {
        checkOpen();
        resizeInput(Session.indexOf(name, inputs, "input"), shape);
    }

    private static List<Session> build(InterpreterRecipe recipe, int count) {
        List<Session> built = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                built.add(new Session(recipe));
            }
            return built;
        } catch (RuntimeException e) {
            built.forEach(Session::close);
            throw e;
        }
    }

    private void serve(List<Session> built) {
        sessions.addAll(built);
        idle.addAll(built);
        describe(built.get(0));
        size += built.size();
        permits.release(built.size());
    }

    private void describe(Session session) {
        inputs = session.inputs();
        outputs = session.outputs();
    }

    private Outputs call(Function<Session, Outputs> run) throws InterruptedException, TimeoutException {
        checkOpen();
        // A zero wait honours the queue of a fair semaphore, where tryAcquire() would jump it.
        if (!permits.tryAcquire(0, TimeUnit.NANOSECONDS)) {
            long start = System.nanoTime();
            boolean acquired = false;
            try {
                acquired = permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } finally {
                stats.waited(System.nanoTime() - start);
            }
            if (!acquired) {
                stats.timedOut();
                throw new TimeoutException("no session of the pool's " + size + " was free within " + timeout);
            }
        }
        try {
            // close() hands its permits back once it is done, so a caller that was waiting lands here.
            checkOpen();
            Session session = idle.remove();
            long start = System.nanoTime();
            boolean succeeded = false;
            try {
                Outputs outputs = run.apply(session);
                succeeded = true;
                return outputs;
            } finally {
                stats.ran(start, succeeded);
                idle.add(session);
            }
        } finally {
            permits.release();
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("session pool is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        permits.acquireUninterruptibly(size);
        sessions.forEach(Session::close);
        permits.release(size);
    }
}
