package dev.tflitearena.nativelayer;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The offsets and sizes of TFLite's structs that the native layer relies on: "Struct.field" names an offset,
 * "Struct" a size. The native layer was compiled against one release's headers (the AAR's); the presets on
 * the class path know the layout of the release they were built from ({@link Loader#offsetof},
 * {@link Loader#sizeof} of their mapped classes). {@link #check} refuses the native layer at the first entry
 * where the two differ, so that it never reads a field at the wrong place.
 */
public record StructLayout(Map<String, Long> entries) {
    private static final String PRESETS_PACKAGE = "org.bytedeco.tensorflowlite.";

    /** Keeps the order of {@code entries}: {@link #check} names the first that differs, the same on every run. */
    public StructLayout {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /** A refused layout: its message names the field. */
    public static final class Mismatch extends Exception {
        Mismatch(String message) {
            super(message);
        }
    }

    /** The layout the native layer was compiled with (native/layout.cc). */
    static StructLayout compiled() {
        NativeLayer.ensureLoaded();
        String[] names = NativeLayer.layoutNames();
        long[] values = NativeLayer.layoutValues();
        Map<String, Long> entries = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            entries.put(names[i], values[i]);
        }
        return new StructLayout(entries);
    }

    /** The presets' view of the same entries, -1 for one they do not map. */
    static StructLayout presets() {
        NativeLayer.ensureLoaded();
        Map<String, Long> entries = new LinkedHashMap<>();
        for (String name : NativeLayer.layoutNames()) {
            entries.put(name, presetsValue(name));
        }
        return new StructLayout(entries);
    }

    private static long presetsValue(String name) {
        int dot = name.indexOf('.');
        String struct = dot < 0 ? name : name.substring(0, dot);
        Class<?> type;
        try {
            type = Class.forName(PRESETS_PACKAGE + struct);
        } catch (ClassNotFoundException e) {
            return -1;
        }
        Loader.load(type);
        @SuppressWarnings("unchecked")
        Class<? extends Pointer> pointer = (Class<? extends Pointer>) type;
        try {
            return dot < 0 ? Loader.sizeof(pointer) : Loader.offsetof(pointer, name.substring(dot + 1));
        } catch (NullPointerException e) {
            // Loader's answer for a member the presets' release does not have.
            return -1;
        }
    }

    /**
     * Refuses unless every entry of this layout has the same value in {@code runtime}; {@code runtimeVersion}
     * names the release in the message.
     */
    public void check(StructLayout runtime, String runtimeVersion) throws Mismatch {
        for (var entry : entries.entrySet()) {
            String name = entry.getKey();
            Long theirs = runtime.entries.get(name);
            String what = name.contains(".") ? "offsetof(" + name + ")" : "sizeof(" + name + ")";
            if (theirs == null || theirs < 0) {
                throw new Mismatch("the native layer relies on " + what + ", which TFLite " + runtimeVersion
                        + " (the presets on the class path) does not have");
            }
            if (theirs.longValue() != entry.getValue()) {
                throw new Mismatch("the native layer was compiled with " + what + " = " + entry.getValue()
                        + ", but TFLite " + runtimeVersion + " (the presets on the class path) has " + theirs);
            }
        }
    }
}
