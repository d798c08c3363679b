package dev.tflitearena.nativelayer;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.tensorflowlite.global.tensorflowlite;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The project's own native library, {@code libjnitflitearena.so} (built from {@code native/} by
 * {@code cppbuild.sh}), loaded with JavaCPP's {@link Loader} from the classifier jar of the running platform.
 * It is usable only once every struct layout it relies on has matched the presets' view of the TFLite release
 * on the class path ({@link StructLayout}); otherwise {@link #available()} is false and {@link #unavailableReason()}
 * says why (no build for this platform, or which field differs), and callers keep their per-field path.
 * XNNPACK's functions (native/xnnpack.cc) read none of those structs, so they need the library loaded only
 * ({@link #requireLoaded}): on a release whose layout is refused (2.12) they still work.
 */
public final class NativeLayer {
    static final String LIBRARY = "jnitflitearena";
    /** The name the library was linked against (the presets' library has no SONAME): see {@link #load()}. */
    private static final String PRESETS_LIBRARY = "libjnitensorflowlite.so";

    private NativeLayer() {
    }

    /** True when the library is loaded and its layouts match the runtime's. */
    public static boolean available() {
        return Checked.REASON == null;
    }

    /** Why the native layer is not in use; null when it is. */
    public static String unavailableReason() {
        return Checked.REASON;
    }

    /** Prints whether the native layer is in use, for which platform and TFLite release; exits 1 if not. */
    public static void main(String[] args) {
        if (!available()) {
            System.out.println("native layer not in use: " + unavailableReason());
            System.exit(1);
        }
        System.out.println("native layer " + System.mapLibraryName(LIBRARY) + " for " + Loader.getPlatform()
                + ", its layouts matching TFLite " + linkedVersion());
    }

    /** Why the library does not load; null when it does (its layout may still be refused). */
    public static String loadFailure() {
        return Loaded.FAILURE;
    }

    /** Fails with the reason when the library does not load; its layout may still be refused. */
    public static void requireLoaded(String what) {
        if (Loaded.FAILURE != null) {
            throw new IllegalStateException(what + " needs the native layer: " + Loaded.FAILURE);
        }
    }

    /** Fails with the reason when the native layer is not in use. */
    public static void require(String what) {
        if (!available()) {
            throw new IllegalStateException(what + " needs the native layer: " + unavailableReason());
        }
    }

    /**
     * Every tensor and every node of the execution plan of a subgraph: its {@code TfLiteContext} at
     * {@code context}, its {@code node_count} nodes and registrations from {@code nodes} (the first element
     * of {@code Subgraph::nodes_and_registration()}), and its plan. Written into {@code ints}, {@code longs}
     * and {@code strings}, in the format the bridge's BulkSnapshot decodes, when they are long enough: else
     * false, and the lengths the three need are in {@code needed}.
     */
    public static boolean snapshotInto(long context, long nodes, int nodeCount, int[] plan, int[] needed, int[] ints,
                                       long[] longs, byte[] strings) {
        require("the bulk snapshot");
        return snapshot(context, nodes, nodeCount, plan, needed, ints, longs, strings);
    }

    /**
     * Gives each of {@code tensors} of the subgraph at {@code subgraph} (its {@code TfLiteContext} at
     * {@code context}) the custom allocation of {@code bytes[i]} bytes at {@code addresses[i]}, in order,
     * after checking it is an arena tensor (only a persistent one with {@code persistentOnly}) of at most that
     * size. Null when all took theirs, else {position, reason, value} of the first refused, in the format
     * native/handover.cc writes down.
     */
    public static long[] customAllocations(long subgraph, long context, int[] tensors, long[] addresses,
                                           long[] bytes, boolean persistentOnly) {
        require("the batched handover");
        return customAllocations0(subgraph, context, tensors, addresses, bytes, persistentOnly);
    }

    /**
     * After {@code AllocateTensors()}: the position of the first of {@code tensors} that is not custom-allocated
     * at its address, or -1, followed by the positions of the variable ones.
     */
    public static int[] customAt(long context, int[] tensors, long[] addresses) {
        require("the batched handover");
        return customAt0(context, tensors, addresses);
    }

    /**
     * What a subgraph's own structures hold on malloc's heap (its {@code TfLiteContext} at {@code context}, its
     * {@code nodeCount} nodes and registrations from {@code nodes}), per category in the order
     * native/heap_census.cc writes down: malloc_usable_size of each block the interpreter builder and the
     * subgraph malloc for tensors, shapes, quantization, sparsity and nodes; dynamic tensors' bytes.
     */
    public static long[] heapCensus(long context, long nodes, int nodeCount) {
        require("the heap census");
        return heapCensus0(context, nodes, nodeCount);
    }

    /**
     * A deep copy of each sparse tensor's TfLiteSparsity in the subgraph whose {@code TfLiteContext} is at
     * {@code context}: {tensor, address, bytes} per sparse tensor (native/shared_sparsity.cc). The copies are
     * the caller's to free with {@link #freeSparsity}.
     */
    public static long[] copySparsity(long context) {
        require("sharing sparse indices");
        return copySparsity0(context);
    }

    /**
     * Points each of {@code tensors} at its copy in {@code copies}, its own freed, once each has been checked
     * equal to its copy: -1, else the position of the first that is not sparse or differs, nothing changed.
     */
    public static int shareSparsity(long context, int[] tensors, long[] copies) {
        require("sharing sparse indices");
        return shareSparsity0(context, tensors, copies);
    }

    /** Those of {@code tensors} that point at their copy point at nothing: due before the interpreter is deleted. */
    public static void unshareSparsity(long context, int[] tensors, long[] copies) {
        require("sharing sparse indices");
        unshareSparsity0(context, tensors, copies);
    }

    public static void freeSparsity(long copy) {
        require("sharing sparse indices");
        freeSparsity0(copy);
    }

    /**
     * Before the subgraph at {@code subgraph} first allocates its tensors: has it run its nodes in {@code plan}
     * (node indices) from then on. TFLite's status: it refuses an index it has no node of.
     */
    public static int setExecutionPlan(long subgraph, int[] plan) {
        require("setting the execution plan");
        return setExecutionPlan0(subgraph, plan);
    }

    /** The library, loaded; null, or why it is not. */
    private static final class Loaded {
        static final String FAILURE = load();
    }

    /** The library, loaded and its layout checked; null, or why it is not in use. */
    private static final class Checked {
        static final String REASON = Loaded.FAILURE != null ? Loaded.FAILURE : check();
    }

    /** Loads the library for the layout check's own use; fails when it does not load. */
    static void ensureLoaded() {
        if (Loaded.FAILURE != null) {
            throw new IllegalStateException(Loaded.FAILURE);
        }
    }

    private static String check() {
        try {
            StructLayout.compiled().check(StructLayout.presets(), linkedVersion());
            return null;
        } catch (StructLayout.Mismatch e) {
            return e.getMessage();
        }
    }

    /**
     * Loads the library, or says why not. The presets' library has no SONAME, so the dynamic linker would not
     * recognise it under the name this library was linked against; a link by that name beside this library
     * ($ORIGIN is in its run path) to the file JavaCPP loaded makes the linker reuse that very copy (the
     * same file), never a second TFLite.
     */
    private static String load() {
        String platform = Loader.getPlatform();
        File library;
        try {
            String presets = Loader.load(tensorflowlite.class);
            library = Loader.cacheResource(NativeLayer.class, platform + "/" + System.mapLibraryName(LIBRARY));
            if (library == null) {
                return "no native layer for " + platform + " on the class path (cppbuild.sh builds linux-x86_64"
                        + " and linux-arm64: the classifier jar tflite-arena-VERSION-" + platform + ".jar)";
            }
            linkBeside(library.toPath(), Path.of(presets));
        } catch (IOException | RuntimeException e) {
            return "the native layer for " + platform + " could not be unpacked: " + e;
        }
        try {
            System.load(library.getAbsolutePath());
            return null;
        } catch (UnsatisfiedLinkError e) {
            return "the native layer " + library + " does not load: " + e.getMessage();
        }
    }

    private static void linkBeside(Path library, Path presets) throws IOException {
        Path link = library.resolveSibling(PRESETS_LIBRARY);
        if (Files.isSymbolicLink(link) && Files.readSymbolicLink(link).equals(presets)) {
            return;
        }
        Path fresh = library.resolveSibling(PRESETS_LIBRARY + "." + ProcessHandle.current().pid());
        Files.deleteIfExists(fresh);
        Files.createSymbolicLink(fresh, presets);
        // A rename replaces the link in one step, so a JVM loading beside this one never sees none.
        Files.move(fresh, link, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    // native/layout.cc
    static native String[] layoutNames();

    static native long[] layoutValues();

    static native String linkedVersion();

    // native/snapshot.cc
    private static native boolean snapshot(long context, long nodes, int nodeCount, int[] plan, int[] needed,
                                           int[] ints, long[] longs, byte[] strings);

    // native/handover.cc
    private static native long[] customAllocations0(long subgraph, long context, int[] tensors, long[] addresses,
                                                    long[] bytes, boolean persistentOnly);

    private static native int[] customAt0(long context, int[] tensors, long[] addresses);

    // native/heap_census.cc
    private static native long[] heapCensus0(long context, long nodes, int nodeCount);

    // native/shared_sparsity.cc
    private static native long[] copySparsity0(long context);

    private static native int shareSparsity0(long context, int[] tensors, long[] copies);

    private static native void unshareSparsity0(long context, int[] tensors, long[] copies);

    private static native void freeSparsity0(long copy);

    // native/execution_plan.cc
    private static native int setExecutionPlan0(long subgraph, int[] plan);
}
