package dev.tflitearena.plan.order;

import java.util.Arrays;
import java.util.Locale;

/** Which order the ops run in: the model's own, or one {@link MemoryOrder} picks to lower the arena's bound. */
public enum Order {
    MODEL,
    MEMORY;

    /** The name users give: {@code model} or {@code memory}. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Order byName(String name) {
        return Arrays.stream(values()).filter(o -> o.jsonName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown order '" + name + "': model or memory"));
    }
}
