package dev.tflitearena.plan;

/** The two arenas TFLite plans per subgraph, named as in the plan JSON. */
public enum Arena {
    /** kTfLiteArenaRw tensors: reused as lifetimes end. */
    RW("rw"),
    /** kTfLiteArenaRwPersistent tensors: placed once, kept for the interpreter's life. */
    PERSISTENT("persistent");

    private final String jsonName;

    Arena(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }
}
