package dev.tflitearena.graph;

/** The bits of TFLite's {@code TfLiteInPlaceOp}, as a node's {@code inplace} flags hold them. */
public final class Inplace {
    public static final int NONE = 0;
    /** The output holds the input's data unchanged (a reshape), so size and use count need not match. */
    public static final int DATA_UNMODIFIED = 1;
    public static final int INPUT_SHARED_WITH_CORRESPONDING_OUTPUT = 2;
    /** Input k may share output 0's memory when bit {@code INPUT0_SHARED << k} is set, k = 0..2. */
    public static final int INPUT0_SHARED = 4;
    public static final int INPUT1_SHARED = 8;
    public static final int INPUT2_SHARED = 16;
    /** Only the first three inputs are ever considered for sharing. */
    public static final int MAX_SHARABLE_INPUTS = 3;

    private Inplace() {
    }
}
