package dev.tflitearena.bridge;

/**
 * What handing a Java plan to a native interpreter achieved: the Java arena's size, how many tensors it
 * took over, and what the runtime still allocates itself in its rw and persistent arenas.
 */
public record Handover(String planner, long javaArenaBytes, long persistentBytes, int tensorsHandedOver,
                       long nativeArenaBytesLeft, long nativePersistentBytesLeft) {
}
