package dev.tflitearena.plan.baked;

import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.graph.tflite.TfliteFile;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * A model's baked plan as reading the model found it: the plan and whether the model is the one it was made from
 * (checked once, against the model's bytes), or why the entry cannot be read; nothing for a model without one.
 * Sessions and the command line decide by it alike whether a plan may serve.
 */
public record BakedEntry(BakedPlan plan, boolean sameModel, String unreadable) {
    public static final BakedEntry NONE = new BakedEntry(null, false, null);

    /** The entry of the model's bytes; {@code where} names the model, and is left out of {@link #unreadable}. */
    public static BakedEntry of(ByteBuffer model, String where) {
        try {
            Optional<byte[]> entry = TfliteFile.metadata(model, BakedPlan.NAME);
            if (entry.isEmpty()) {
                return NONE;
            }
            BakedPlan plan = BakedPlan.decode(entry.get(), where);
            return new BakedEntry(plan, plan.fingerprint().madeFrom(model), null);
        } catch (InvalidModelException e) {
            String message = e.getMessage();
            return new BakedEntry(null, false, message.startsWith(where + ": ")
                    ? message.substring(where.length() + 2) : message);
        }
    }

    public boolean present() {
        return plan != null || unreadable != null;
    }

    /**
     * Why the plan cannot serve an interpreter of this release and these options (the differences, joined), or
     * null when it can, as far as its fingerprint tells: the validator has the last word.
     */
    public String whyNot(String release, boolean releaseInputs, String order, boolean xnnpack) {
        if (unreadable != null) {
            return "it cannot be read: " + unreadable;
        }
        if (plan == null) {
            return "the model carries none (metadata '" + BakedPlan.NAME + "'; 'bake --for tflite' writes it)";
        }
        List<String> differences = plan.fingerprint().differences(sameModel, release, releaseInputs, order, xnnpack);
        return differences.isEmpty() ? null : String.join("; ", differences);
    }
}
