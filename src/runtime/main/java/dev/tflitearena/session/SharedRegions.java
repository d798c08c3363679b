package dev.tflitearena.session;

import dev.tflitearena.bridge.XnnpackWeightsCache;
import dev.tflitearena.bridge.sharing.SharedConstants;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One model's shared constant regions and XNNPACK weights caches, one per configuration (the interpreter's
 * settings and input shapes: what decides which kernels run and so which tensors they persist). Closing it
 * closes them; each is freed once the last session pointing into it has closed too.
 */
final class SharedRegions implements AutoCloseable {
    private final Map<Object, SharedConstants> byConfiguration = new HashMap<>();
    private final Map<Object, XnnpackWeightsCache> weightsCaches = new HashMap<>();
    private boolean closed;

    /** The region of {@code configuration}, proved by {@code prove} the first time it is asked for. */
    synchronized SharedConstants get(Object configuration, Supplier<SharedConstants> prove) {
        if (closed) {
            throw new IllegalStateException("the model is closed");
        }
        SharedConstants region = byConfiguration.get(configuration);
        if (region == null) {
            region = prove.get();
            byConfiguration.put(configuration, region);
        }
        return region;
    }

    /** The weights cache the XNNPACK delegates of {@code configuration} share, created the first time. */
    synchronized XnnpackWeightsCache weightsCache(Object configuration) {
        if (closed) {
            throw new IllegalStateException("the model is closed");
        }
        return weightsCaches.computeIfAbsent(configuration, c -> XnnpackWeightsCache.create());
    }

    @Override
    public synchronized void close() {
        closed = true;
        byConfiguration.values().forEach(SharedConstants::close);
        byConfiguration.clear();
        weightsCaches.values().forEach(XnnpackWeightsCache::close);
        weightsCaches.clear();
    }
}
