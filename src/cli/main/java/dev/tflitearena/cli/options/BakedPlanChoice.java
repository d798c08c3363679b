package dev.tflitearena.cli.options;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.baked.BakedEntry;
import dev.tflitearena.plan.baked.BakedOrPlanned;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a command runs a model on the plan baked into it, decided as a session decides by default: when the
 * plan was made for this model, release and options and the validator accepts it for the prepared graph; else
 * the command plans as its options say, and says on standard error why the baked plan was not used.
 */
public final class BakedPlanChoice {
    private final Path model;
    private final Planner otherwise;
    private final PrintWriter err;
    private final boolean present;
    private final Planner planner;
    private String notUsed;

    private BakedPlanChoice(Path model, Planner otherwise, PrintWriter err, BakedEntry entry, String notUsed) {
        this.model = model;
        this.otherwise = otherwise;
        this.err = err;
        this.present = entry.present();
        this.notUsed = notUsed;
        if (notUsed != null) {
            say();
        }
        this.planner = !present || notUsed != null ? otherwise : new BakedOrPlanned(entry.plan(), otherwise, why -> {
            this.notUsed = why;
            say();
        });
    }

    /**
     * For a model that may carry a baked plan: {@code otherwise} plans without it (null: TFLite's own planner),
     * and a baked plan is left unused when the user {@code named} that planner.
     */
    public static BakedPlanChoice of(Path model, Planner otherwise, boolean named, GraphOptions graph,
                                     PrintWriter err) throws IOException {
        BakedEntry entry = BakedEntry.of(ByteBuffer.wrap(Files.readAllBytes(model)), model.toString());
        String why = !entry.present() ? null : named || otherwise == null
                ? "--planner names " + (otherwise == null ? "native" : otherwise.name())
                : entry.whyNot(NativeRelease.loaded().version(), graph.releaseInputs.on,
                graph.order.value().jsonName(), graph.nativeOptions.xnnpack.on);
        return new BakedPlanChoice(model, otherwise, err, entry, why);
    }

    /** The baked plan, to be checked against the graph it is given, or the other planner; null for TFLite's own. */
    public Planner planner() {
        return planner;
    }

    private void say() {
        err.println(model + ": its baked plan is not used, planning with "
                + (otherwise == null ? "native" : otherwise.name()) + ": " + notUsed);
        err.flush();
    }

    /** {@code baked_plan}: none, used or not_used, with {@code baked_plan_why} when it was not used. */
    public void toJson(ObjectNode root) {
        root.put("baked_plan", !present ? "none" : notUsed == null ? "used" : "not_used");
        if (notUsed != null) {
            root.put("baked_plan_why", notUsed);
        }
    }
}
