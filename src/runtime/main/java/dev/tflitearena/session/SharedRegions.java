package dev.tflitearena.session;

import dev.tflitearena.bridge.SharedConstants;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One model's shared constant regions, one per configuration (the interpreter's settings and input shapes:
 * what decides which kernels run and so which tensors they persist). Closing it closes the regions; each is
 * freed once the last session pointing into it has closed too.
 */
final class SharedRegions implements AutoCloseable {
    private final Map<Object, SharedConstants> byConfiguration = new HashMap<>();
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

    @Override
    public synchronized void close() {
        closed = true;
        byConfiguration.values().forEach(SharedConstants::close);
        byConfiguration.clear();
    }
}
