package dev.tflitearena.plan.baked;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * What a baked plan is valid for: the model it was made from (its size and SHA-256, as the bytes were before the
 * plan was written in), the TFLite release whose rules it follows, and the options that change a plan: graph
 * inputs released after their last consumer, the node order, XNNPACK. The project writes metadata by putting a
 * new root table in front of a model and leaving the model's bytes behind it ({@code MetadataWriter}), so the
 * model a plan was made from is the last {@code modelBytes} bytes of every file baked from it since.
 */
public record PlanFingerprint(long modelBytes, byte[] modelSha256, String release, boolean releaseInputs,
                              String order, boolean xnnpack) {
    public static final int SHA256_BYTES = 32;

    public PlanFingerprint {
        if (modelSha256.length != SHA256_BYTES) {
            throw new IllegalArgumentException("a SHA-256 has " + SHA256_BYTES + " bytes, got " + modelSha256.length);
        }
        modelSha256 = modelSha256.clone();
    }

    @Override
    public byte[] modelSha256() {
        return modelSha256.clone();
    }

    /** The SHA-256 of the buffer's remaining bytes, its position left alone. */
    public static byte[] sha256(ByteBuffer bytes) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(bytes.duplicate());
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Whether the file holds, as its last {@code modelBytes} bytes, the model this plan was made from. */
    public boolean madeFrom(ByteBuffer file) {
        if (file.remaining() < modelBytes) {
            return false;
        }
        ByteBuffer model = file.duplicate();
        model.position(model.limit() - (int) modelBytes);
        return Arrays.equals(modelSha256, sha256(model));
    }

    /**
     * What differs between the plan's fingerprint and what a session or command asks for, each in words; empty
     * when the plan is valid for it. {@code sameModel}: what {@link #madeFrom} said of the file.
     */
    public List<String> differences(boolean sameModel, String release, boolean releaseInputs, String order,
                                    boolean xnnpack) {
        List<String> differences = new ArrayList<>();
        if (!sameModel) {
            differences.add("the model is not the one the plan was made from (" + modelBytes + " bytes of SHA-256 "
                    + HexFormat.of().formatHex(modelSha256, 0, 8) + "...): it was edited or rebuilt since");
        }
        if (!this.release.equals(release)) {
            differences.add("the plan follows TFLite " + this.release + "'s rules, this runtime is TFLite " + release);
        }
        if (this.releaseInputs != releaseInputs) {
            differences.add(this.releaseInputs ? "the plan releases graph inputs after their last consumer, the "
                    + "session keeps them to the end" : "the plan keeps graph inputs to the end, the session releases "
                    + "them after their last consumer");
        }
        if (!this.order.equals(order)) {
            differences.add("the plan is for the " + this.order + " order, the session runs in the " + order + " order");
        }
        if (this.xnnpack != xnnpack) {
            differences.add(this.xnnpack ? "the plan is for XNNPACK on, the session runs without it"
                    : "the plan is for XNNPACK off, the session delegates to it");
        }
        return differences;
    }
}
