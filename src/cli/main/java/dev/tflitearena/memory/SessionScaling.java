package dev.tflitearena.memory;

import dev.tflitearena.bridge.sharing.PersistentTensors;
import dev.tflitearena.progress.Progress;
import dev.tflitearena.progress.ProgressCounter;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What each extra session of one model costs: for each count N, the model loaded and N sessions made,
 * allocated and invoked once, then the native heap (the JVM's own mallocs taken out where known) and RSS
 * against a sample taken before loading. The marginal per session is the slope from the smallest N to the
 * largest, split into what the sessions report of themselves (rw arena, the persistent arena they own) and
 * the rest: the interpreter's own structures, or with XNNPACK also the delegate's packed weights and
 * workspace, which the delegate does not report.
 */
public final class SessionScaling {
    /** The tolerance of the goal: a session may cost its working memory plus this share of one session's heap. */
    public static final double GOAL_SHARE_OF_ONE_SESSION = 0.05;
    /** The goal is for models whose working set is at least this: below, no API shares what TFLite keeps per session. */
    public static final long MIN_JUDGED_WORKING_BYTES = 4L << 20;

    public record Point(int count, long nativeHeapBytes, long residentBytes) {
    }

    /**
     * @param rwArenaBytes         one session's rw arena
     * @param persistentArenaBytes the persistent arena one session owns, the shared tensors left out
     * @param sharedBytes          the region the sessions share, 0 without sharing
     * @param persistentTensors    what one session's persistent arena holds, each with why it is not shared
     * @param restSplit            the rest, split by when it is malloc'ed; null without the native layer
     */
    public record Result(SessionOptions options, List<Point> points, long rwArenaBytes, long persistentArenaBytes,
                         long sharedBytes, List<PersistentTensors.Owned> persistentTensors, RestSplit restSplit) {
        /** Native heap per extra session: the slope from the smallest count to the largest. */
        public long perExtraSessionBytes() {
            Point first = points.get(0);
            Point last = points.get(points.size() - 1);
            return (last.nativeHeapBytes() - first.nativeHeapBytes()) / (last.count() - first.count());
        }

        /** What a session's heap holds beyond its arenas. */
        public long restBytes() {
            return perExtraSessionBytes() - rwArenaBytes - persistentArenaBytes;
        }

        /** One session's native heap, the model included: the smallest count's, less its extra sessions. */
        public long oneSessionBytes() {
            Point first = points.get(0);
            return first.nativeHeapBytes() - (first.count() - 1) * perExtraSessionBytes();
        }
    }

    /**
     * One configuration measured against another: {@code measured} and, with XNNPACK, the same without it,
     * which tells XNNPACK's share of the measured rest.
     */
    public record Report(Result measured, Result withoutXnnpack) {
        /**
         * The delegate's runtime, packed weights (when not shared) and workspace per session: what AllocateTensors,
         * which applies the delegate, mallocs beyond what it mallocs without XNNPACK, both measured step by step.
         * Without the step measure, the rest beyond the same sessions' without XNNPACK, whose first invoke also
         * makes the thread pools XNNPACK does without, so that a small model's share comes out too small.
         */
        public long xnnpackBytes() {
            if (withoutXnnpack == null) {
                return 0;
            }
            if (measured.restSplit() != null && withoutXnnpack.restSplit() != null) {
                return measured.restSplit().allocateBytes() - withoutXnnpack.restSplit().allocateBytes();
            }
            return measured.restBytes() - withoutXnnpack.restBytes();
        }

        public long restBytes() {
            return measured.restBytes() - xnnpackBytes();
        }

        /**
         * What a session must own because sessions run concurrently: its rw arena, and with XNNPACK the
         * delegate's per-session memory, which holds its workspace and, when the sessions do not share, its
         * packed weights too (sharing sessions share a weights cache).
         */
        public long workingBytes() {
            return measured.rwArenaBytes() + xnnpackBytes();
        }

        public long goalBytes() {
            return workingBytes() + Math.round(GOAL_SHARE_OF_ONE_SESSION * measured.oneSessionBytes());
        }

        /**
         * Whether the goal can be judged: not with XNNPACK when the sessions do not share, for each delegate's
         * per-session memory then holds its packed weights beside its workspace.
         */
        public boolean goalJudged() {
            return (!measured.options().xnnpack() || measured.options().shareConstants())
                    && workingBytes() >= MIN_JUDGED_WORKING_BYTES;
        }

        /** Why the goal is not judged; null when it is. */
        public String notJudgedBecause() {
            if (measured.options().xnnpack() && !measured.options().shareConstants()) {
                return "XNNPACK's share holds its packed weights when the sessions share nothing";
            }
            return workingBytes() < MIN_JUDGED_WORKING_BYTES ? "a working set under 4 MB, where the interpreter's "
                    + "own structures, some 200 KB a session, are more than 5% of one session" : null;
        }

        public boolean withinGoal() {
            return measured.perExtraSessionBytes() <= goalBytes();
        }
    }

    private SessionScaling() {
    }

    /**
     * Measures {@code options} at every count, after an unreported round at the smallest, which pays for
     * loading the native library and compiling the run loop; with XNNPACK, measures without it too.
     */
    public static Report measure(Path model, SessionOptions options, List<Integer> counts, Progress progress) {
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(counts));
        if (sorted.size() < 2 || sorted.get(0) < 1) {
            throw new IllegalArgumentException("--sessions needs at least two different counts of 1 or more, got "
                    + counts);
        }
        List<SessionOptions> runs = options.xnnpack() ? List.of(options, options.withXnnpack(false)) : List.of(options);
        int sessions = sorted.stream().mapToInt(Integer::intValue).sum();
        ProgressCounter steps = new ProgressCounter(progress, (long) runs.size() * (sessions + sorted.get(0) + 1));
        List<Result> results = new ArrayList<>();
        for (SessionOptions run : runs) {
            measure(model, run, sorted.get(0), steps);
            List<Point> points = new ArrayList<>();
            Measured last = null;
            for (int count : sorted) {
                last = measure(model, run, count, steps);
                points.add(new Point(count, last.heap, last.resident));
            }
            steps.next((run.xnnpack() ? "XNNPACK, " : "") + "the rest split, step by step");
            results.add(new Result(run, points, last.rwArena, last.persistentArena, last.shared, last.persistentTensors,
                    RestSplit.measure(model, run)));
        }
        return new Report(results.get(0), results.size() > 1 ? results.get(1) : null);
    }

    private record Measured(long heap, long resident, long rwArena, long persistentArena, long shared,
                            List<PersistentTensors.Owned> persistentTensors) {
    }

    /** Heap and RSS growth with {@code count} sessions, then what one session reports of itself. */
    private static Measured measure(Path model, SessionOptions options, int count, ProgressCounter steps) {
        MemoryProfile.settle();
        NativeHeap.Usage heapBefore = NativeHeap.usage();
        long residentBefore = ProcessMemory.residentBytes();
        List<Session> sessions = new ArrayList<>();
        try (TfLiteModel loaded = TfLiteModel.load(model)) {
            for (int i = 0; i < count; i++) {
                steps.next((options.xnnpack() ? "XNNPACK, " : "") + count + " sessions: session " + (i + 1));
                Session session = loaded.newSession(options);
                sessions.add(session);
                session.run(MemoryProfile.seededInputs(session));
            }
            MemoryProfile.settle();
            long heap = NativeHeap.usage().outsideJvm() - heapBefore.outsideJvm();
            long resident = ProcessMemory.residentBytes() - residentBefore;
            Session first = sessions.get(0);
            return new Measured(heap, resident, first.arenaBytes(), first.persistentArenaBytes(), first.sharedBytes(),
                    first.persistentTensors());
        } finally {
            sessions.forEach(Session::close);
        }
    }
}
