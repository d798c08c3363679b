package dev.tflitearena.session;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A pool call held on its session until released: a session reads its inputs by name while it runs, and this
 * map makes it wait there, with the pool's session and permit taken.
 */
final class HeldCall {
    private final CountDownLatch inCall = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final Future<Outputs> outputs;

    /** Starts the call on {@code threads} and returns once it holds a session. */
    HeldCall(SessionPool pool, Object values, ExecutorService threads) throws InterruptedException {
        TensorInfo input = pool.inputs().get(0);
        Map<String, Object> held = new HashMap<>(Map.of(input.name(), values)) {
            @Override
            public Object get(Object key) {
                inCall.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.get(key);
            }
        };
        outputs = threads.submit(() -> pool.run(held));
        if (!inCall.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the held call found no session");
        }
    }

    /** Lets the call run and returns its outputs. */
    Outputs release() throws Exception {
        release.countDown();
        return outputs.get(60, TimeUnit.SECONDS);
    }
}
