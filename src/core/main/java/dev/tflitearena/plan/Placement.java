package dev.tflitearena.plan;

/**
 * Where one arena tensor lives. {@code offset} is -1 when the tensor gets no arena memory (zero bytes, or
 * never allocated); {@code first}/{@code last} are -1 when the tensor has no lifetime; {@code aliasOf} is the
 * tensor whose memory it shares in place, or -1.
 */
public record Placement(int tensor, Arena arena, long offset, long bytes, int first, int last, int aliasOf) {

    public boolean hasMemory() {
        return offset >= 0;
    }
}
