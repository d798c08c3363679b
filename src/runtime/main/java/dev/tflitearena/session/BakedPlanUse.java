package dev.tflitearena.session;

/** What a plan baked into the model ({@code bake --for tflite}) is to a session: {@link SessionOptions#withBakedPlan}. */
public enum BakedPlanUse {
    /**
     * The session runs on the baked plan when it was made for this model, TFLite release and options and the
     * validator accepts it; otherwise it plans as its options say, and logs one line saying why.
     */
    IF_VALID,
    /** As {@link #IF_VALID}, but a model without a usable baked plan is refused, naming what differs. */
    REQUIRED,
    /** The session plans as its options say, whatever the model carries. */
    IGNORED
}
