package dev.tflitearena.graph;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The TFLite releases whose planner the project reproduces, each checked against its native library (the
 * JavaCPP presets 2.12.0-1.5.9 to 2.20.0-1.5.13). Like {@code preserve_all_tensors}, a release changes which
 * memory TFLite lets tensors share, so a graph carries the release it is planned for in its options. Only
 * four behaviours differ between these releases, each read from that release's source and confirmed
 * natively: how an output comes to share its input's memory, whether it still does under
 * {@code preserve_all_tensors}, how much the arena buffer exceeds the plan, and what RESHAPE's prepare does
 * with a shape it cannot read yet.
 */
public enum TfliteRelease {
    V2_12("2.12", Sharing.RESHAPE_OPS, true, 128, false),
    V2_15("2.15", Sharing.INPLACE_OPERATOR, true, 128, false),
    V2_18("2.18", Sharing.INPLACE_OPERATOR, false, 0, false),
    V2_19("2.19", Sharing.INPLACE_OPERATOR, false, 0, true),
    V2_20("2.20", Sharing.INPLACE_OPERATOR, false, 0, true);

    public static final TfliteRelease NEWEST = V2_20;

    /** How a node's output comes to share the memory of one of its inputs. */
    public enum Sharing {
        /**
         * TFLite 2.12's {@code IdentifySharedTensors}: the first output of EXPAND_DIMS, RESHAPE, SQUEEZE and
         * BITCAST takes the memory of their first input whenever both have the same arena allocation type
         * and neither is a graph input or output, whatever the sizes or use counts.
         */
        RESHAPE_OPS,
        /**
         * TFLite 2.13's {@code IdentifyInPlaceTensors}: each kernel's registration says which inputs may
         * share output 0 ({@code inplace_operator}); a modified input must match in size and have no other use.
         */
        INPLACE_OPERATOR
    }

    private final String version;
    private final Sharing sharing;
    private final boolean sharingUnderPreserveAll;
    private final long arenaBufferPadding;
    private final boolean reshapeShapeNotKnown;

    TfliteRelease(String version, Sharing sharing, boolean sharingUnderPreserveAll, long arenaBufferPadding,
                  boolean reshapeShapeNotKnown) {
        this.version = version;
        this.sharing = sharing;
        this.sharingUnderPreserveAll = sharingUnderPreserveAll;
        this.arenaBufferPadding = arenaBufferPadding;
        this.reshapeShapeNotKnown = reshapeShapeNotKnown;
    }

    /** Major and minor version, as in "2.12". */
    public String version() {
        return version;
    }

    public Sharing sharing() {
        return sharing;
    }

    /**
     * Whether outputs still share their input's memory under {@code preserve_all_tensors}. Up to 2.15 they
     * do: neither {@code IdentifySharedTensors} nor the first {@code InputTensorCanBeShared} looks at the
     * option, so a shared output is "preserved" only until its root is overwritten in place. Later releases
     * refuse to share when the option is on.
     */
    public boolean sharingUnderPreserveAll() {
        return sharingUnderPreserveAll;
    }

    /**
     * Bytes by which a committed arena's buffer, the size {@code GetMemoryAllocInfo} reports, exceeds the
     * plan's high-water mark. Up to 2.15 SimpleMemoryArena allocates {@code RequiredBufferSize()}, the mark
     * plus one arena alignment (64) to align the base plus another as padding, even for an empty plan; its
     * successor, ResizableAlignedBuffer (2.16 or 2.17), reports exactly the size it was asked for.
     */
    public long arenaBufferPadding() {
        return arenaBufferPadding;
    }

    /**
     * Whether a RESHAPE whose shape tensor an op computes returns kTfLiteOutputShapeNotKnown from its prepare,
     * leaving its output an arena tensor with its input's size until it runs; before, its prepare made the
     * output dynamic. Either way TFLite stops preparing after it.
     */
    public boolean reshapeShapeNotKnown() {
        return reshapeShapeNotKnown;
    }

    /** The release a version string names: "2.12", "2.12.0" or a presets version such as "2.12.0-1.5.9". */
    public static TfliteRelease of(String version) {
        String[] parts = version.strip().split("[.-]");
        String majorMinor = parts.length >= 2 ? parts[0] + "." + parts[1] : version.strip();
        return Arrays.stream(values()).filter(r -> r.version.equals(majorMinor)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("no planner rules for TFLite " + version.strip() + "; known releases: "
                        + names()));
    }

    public static String names() {
        return Arrays.stream(values()).map(TfliteRelease::version).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return version;
    }
}
