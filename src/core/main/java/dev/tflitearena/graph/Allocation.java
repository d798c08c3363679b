package dev.tflitearena.graph;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Where a tensor's memory comes from: TFLite's {@code TfLiteAllocationType}, named as in the graph JSON. */
public enum Allocation {
    NONE("none"),
    MMAP_RO("mmap_ro"),
    ARENA_RW("arena_rw"),
    ARENA_RW_PERSISTENT("arena_rw_persistent"),
    DYNAMIC("dynamic"),
    PERSISTENT_RO("persistent_ro"),
    CUSTOM("custom"),
    VARIANT_OBJECT("variant_object"),
    NON_CPU("non_cpu");

    private final String jsonName;

    Allocation(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    /** True for the two kinds the arena planner places. */
    public boolean isArena() {
        return this == ARENA_RW || this == ARENA_RW_PERSISTENT;
    }

    public static Allocation fromJsonName(String name) {
        for (Allocation a : values()) {
            if (a.jsonName.equals(name)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown allocation '" + name + "'; valid: "
                + Arrays.stream(values()).map(Allocation::jsonName).collect(Collectors.joining(", ")));
    }
}
