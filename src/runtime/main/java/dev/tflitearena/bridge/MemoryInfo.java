package dev.tflitearena.bridge;

/** The runtime's own arena sizes, as {@code Subgraph::GetMemoryAllocInfo} reports them. */
public record MemoryInfo(long arenaBytes, long persistentBytes) {
}
