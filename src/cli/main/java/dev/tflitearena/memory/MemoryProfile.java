package dev.tflitearena.memory;

import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.progress.Progress;
import dev.tflitearena.progress.ProgressCounter;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TensorInfo;
import dev.tflitearena.session.TfLiteModel;
import org.bytedeco.javacpp.Pointer;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process's memory through a session's life: before loading the model, after loading it, after the
 * session allocated its tensors, after one invoke and after {@value #INVOKES}. Each sample trims malloc's
 * free memory first, so that RSS shows what is held, not what once was.
 */
public final class MemoryProfile {
    public static final int INVOKES = 100;
    /** The samples of a session: before loading, after loading, after allocating, after 1 and after all invokes. */
    private static final int STAGES = 5;
    /**
     * Native heap growth between the first and the last invoke that is not flagged when the JVM's own
     * mallocs are not known: those (its compiler threads, say) come and go by up to a megabyte, which no
     * model can cause or avoid; the command line's {@code memory} runs with them known.
     */
    public static final long GROWTH_TOLERANCE = 256 * 1024;
    /** The tolerance once the JVM's own mallocs are taken out: what is left is flat to a few kilobytes. */
    public static final long GROWTH_TOLERANCE_OUTSIDE_JVM = 32 * 1024;

    public record Sample(String stage, long residentBytes, NativeHeap.Usage heap) {
    }

    /** The samples of one session, in stage order; the first invoke is the warm-up. */
    public record Result(SessionOptions options, List<Sample> samples) {
        public Sample first() {
            return samples.get(0);
        }

        public long residentGrowthAfterWarmUp() {
            return samples.get(samples.size() - 1).residentBytes() - samples.get(samples.size() - 2).residentBytes();
        }

        public long heapGrowthAfterWarmUp() {
            return samples.get(samples.size() - 1).heap().outsideJvm()
                    - samples.get(samples.size() - 2).heap().outsideJvm();
        }

        /** Whether the JVM's own mallocs are taken out of the native heap's figures. */
        public boolean jvmKnown() {
            return samples.stream().allMatch(s -> s.heap().jvm() != JvmMalloc.UNKNOWN);
        }

        public long growthTolerance() {
            return jvmKnown() ? GROWTH_TOLERANCE_OUTSIDE_JVM : GROWTH_TOLERANCE;
        }

        /**
         * Whether the native heap grew past the tolerance after warm-up. RSS is shown, not judged: it holds the
         * JVM's own heap, which grows and shrinks by megabytes as the collector pleases.
         */
        public boolean grew() {
            return heapGrowthAfterWarmUp() > growthTolerance();
        }
    }

    private MemoryProfile() {
    }

    /**
     * Measures each of {@code runs} in turn, after an unreported round of them all: that round pays for loading
     * the native library and for the JVM compiling the planners and the run loop, whose memory would otherwise
     * count against whichever run came first. Each stage of each round is an item of {@code progress}.
     */
    public static List<Result> measure(Path model, List<SessionOptions> runs, Progress progress) {
        ProgressCounter stages = new ProgressCounter(progress, 2L * runs.size() * STAGES);
        runs.forEach(options -> measure(model, options, stages, "warm-up round, "));
        return runs.stream().map(options -> measure(model, options, stages, "")).toList();
    }

    private static Result measure(Path model, SessionOptions options, ProgressCounter stages, String round) {
        String run = round + options.planner() + " plan: ";
        List<Sample> samples = new ArrayList<>();
        stages.next(run + "before loading");
        samples.add(sample("before loading"));
        stages.next(run + "loading");
        try (TfLiteModel loaded = TfLiteModel.load(model)) {
            samples.add(sample("after loading"));
            stages.next(run + "allocating");
            try (Session session = loaded.newSession(options)) {
                samples.add(sample("after allocating"));
                stages.next(run + "1 invoke");
                Object[] inputs = seededInputs(session);
                session.run(inputs);
                samples.add(sample("after 1 invoke"));
                stages.next(run + INVOKES + " invokes");
                for (int i = 1; i < INVOKES; i++) {
                    session.run(inputs);
                }
                samples.add(sample("after " + INVOKES + " invokes"));
            }
        }
        return new Result(options, samples);
    }

    /** The same seeded value for every input of the session, at the inputs' current shapes. */
    static Object[] seededInputs(Session session) {
        return session.inputs().stream().map(MemoryProfile::seeded).toArray();
    }

    private static ByteBuffer seeded(TensorInfo input) {
        Tensor tensor = new Tensor(input.index(), input.name(), input.bytes(), null, false,
                input.type() == null ? null : input.type().jsonName(), input.shape());
        byte[] data = SeededInputs.of(tensor, 1);
        return ByteBuffer.allocateDirect(data.length).order(ByteOrder.nativeOrder()).put(data).flip();
    }

    private static Sample sample(String stage) {
        settle();
        return new Sample(stage, ProcessMemory.residentBytes(), NativeHeap.usage());
    }

    /** Frees what is garbage, in Java and in malloc, so that what is measured next is what is held. */
    static void settle() {
        collectGarbage();
        NativeHeap.trim();
    }

    /**
     * Collects garbage and frees the native memory of collected JavaCPP pointers now, rather than when its
     * deallocator thread gets to it: a free landing between two samples would read as a change of either.
     * The collector hands cleared references over on another thread; a sentinel's arrival says it has.
     */
    private static void collectGarbage() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            queue.remove(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Reference.reachabilityFence(sentinel);
        Pointer.deallocateReferences();
    }
}
