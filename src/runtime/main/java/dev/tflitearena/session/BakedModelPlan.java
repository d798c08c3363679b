package dev.tflitearena.session;

import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.plan.baked.BakedPlan;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * A model's baked plan as its loading found it: the plan and whether the model is the one it was made from
 * (checked once, against the model's bytes), or why the entry cannot be read; nothing for a model without one.
 */
record BakedModelPlan(BakedPlan plan, boolean sameModel, String unreadable) {
    static final BakedModelPlan NONE = new BakedModelPlan(null, false, null);

    static BakedModelPlan of(NativeModel model) {
        ByteBuffer bytes = model.bytes();
        String where = model.path().toString();
        try {
            Optional<byte[]> entry = TfliteFile.metadata(bytes, BakedPlan.NAME);
            if (entry.isEmpty()) {
                return NONE;
            }
            BakedPlan plan = BakedPlan.decode(entry.get(), where);
            return new BakedModelPlan(plan, plan.fingerprint().madeFrom(bytes), null);
        } catch (InvalidModelException e) {
            // Its messages start with the model, which every message of a session names first anyway.
            String message = e.getMessage();
            return new BakedModelPlan(null, false, message.startsWith(where + ": ")
                    ? message.substring(where.length() + 2) : message);
        }
    }

    boolean present() {
        return plan != null || unreadable != null;
    }

    /**
     * Why the plan cannot serve a session of these options (the differences, joined), or null when it can, as
     * far as its fingerprint tells: the validator has the last word.
     */
    String whyNot(SessionOptions options) {
        if (unreadable != null) {
            return "it cannot be read: " + unreadable;
        }
        List<String> differences = plan.fingerprint().differences(sameModel, NativeRelease.loaded().version(),
                options.releaseInputs(), options.order().jsonName(), options.xnnpack());
        return differences.isEmpty() ? null : String.join("; ", differences);
    }
}
