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
 * Serves concurrent callers: each call in flight has a session of its own, one of {@code size} made up front,
 * so that the pool never needs its model again. A call waits up to the timeout for a free one. {@link #close()} waits
 * for the calls in flight, then closes every session; calls after it throw {@link IllegalStateException}.
 */
public final class SessionPool implements AutoCloseable {
    private final int size;
    private final Duration timeout;
    private final Semaphore permits;
    private final Queue<Session> idle = new ConcurrentLinkedQueue<>();
    private final List<Session> sessions = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<TensorInfo> inputs;
    private final List<TensorInfo> outputs;

    SessionPool(InterpreterRecipe recipe, int size, Duration timeout) {
        if (size < 1) {
            throw new IllegalArgumentException("a pool needs at least one session, got " + size);
        }
        this.size = size;
        this.timeout = timeout;
        this.permits = new Semaphore(size, true);
        try {
            for (int i = 0; i < size; i++) {
                sessions.add(new Session(recipe));
            }
        } catch (RuntimeException e) {
            sessions.forEach(Session::close);
            throw e;
        }
        idle.addAll(sessions);
        inputs = sessions.get(0).inputs();
        outputs = sessions.get(0).outputs();
    }

    /** {@link Session#inputs()} of the pool's sessions, which are alike. */
    public List<TensorInfo> inputs() {
        return inputs;
    }

    /** {@link Session#outputs()} of the pool's sessions, which are alike. */
    public List<TensorInfo> outputs() {
        return outputs;
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

    private Outputs call(Function<Session, Outputs> run) throws InterruptedException, TimeoutException {
        checkOpen();
        if (!permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new TimeoutException("no session of the pool's " + size + " was free within " + timeout);
        }
        try {
            // close() hands its permits back once it is done, so a caller that was waiting lands here.
            checkOpen();
            // A permit guarantees a session: there are as many as permits.
            Session session = idle.remove();
            try {
                return run.apply(session);
            } finally {
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
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        permits.acquireUninterruptibly(size);
        sessions.forEach(Session::close);
        permits.release(size);
    }
}
