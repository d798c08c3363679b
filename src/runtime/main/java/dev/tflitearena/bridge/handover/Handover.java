package dev.tflitearena.bridge.handover;

/**
 * What handing a Java plan to a native interpreter achieved: the Java plan's rw and persistent arenas, the
 * buffer holding both, how many tensors it took over, and what the runtime still allocates itself in its rw
 * and persistent arenas.
 *
 * @param javaArenaBytes        the Java plan's rw arenas, summed over subgraphs
 * @param javaPersistentBytes   the Java plan's persistent arenas, summed over subgraphs
 * @param javaBufferTotalBytes  the Java arena's one buffer: every rw and persistent region with its alignment
 *                              padding
 */
public record Handover(String planner, long javaArenaBytes, long javaPersistentBytes, long javaBufferTotalBytes,
                       int tensorsHandedOver, long nativeArenaBytesLeft, long nativePersistentBytesLeft) {
}
