package dev.tflitearena.release.compare;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What a round times per model; each is compared on its own. */
public enum Metric {
    /** One native Invoke on TFLite's plan, builtin kernels. */
    INVOKE,
    /** Building a native interpreter and AllocateTensors: kernel prepare and TFLite's plan. */
    NATIVE_SETUP,
    /** The Java 'tflite' planner on the prepared graph. */
    JAVA_PLAN,
    /** Invoke again, with the op profiler: each op type's time and each node's. */
    OPS;

    /** As options and JSON spell it: "invoke", "native_setup", "java_plan", "ops". */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Metric of(String name) {
        return Arrays.stream(values()).filter(m -> m.jsonName().equals(name.strip())).findFirst().orElseThrow(() ->
                new IllegalArgumentException("no metric '" + name.strip() + "'; the metrics: " + names()));
    }

    public static String names() {
        return Arrays.stream(values()).map(Metric::jsonName).collect(Collectors.joining(", "));
    }
}
