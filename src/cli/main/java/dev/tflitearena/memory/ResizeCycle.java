package dev.tflitearena.memory;

import dev.tflitearena.isolation.Supervisor;
import dev.tflitearena.progress.Progress;
import dev.tflitearena.progress.ProgressCounter;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TfLiteModel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A session whose first input changes shape, step after step, against one that keeps the model's own shape
 * for as many invokes: the arena each step re-plans, and the process's peak RSS, which shows what the
 * resizing costs beyond the largest arena. Each resize builds a new interpreter ({@link Session#resizeInput}),
 * so a smaller shape gets a smaller arena, where one interpreter resized in place would keep its largest.
 */
public final class ResizeCycle {
    /** After step 0 at the model's own shape, step k has resized (or not, in the fixed run) and invoked. */
    public record Step(int step, int[] shape, long arenaBytes, long peakBytes) {
    }

    /**
     * One session's steps, how their peaks were read, the RSS the run started from and the native heap with
     * the session still open.
     */
    public record Run(List<Step> steps, String peakSource, long startBytes, NativeHeap.Usage heapAtEnd) {
        /** The peak over the whole run: the mark only rises. */
        public long peakBytes() {
            return steps.get(steps.size() - 1).peakBytes();
        }

        /**
         * How far the peak rose above the run's start: what the run itself cost, comparable between runs
         * where the peaks are not, as each run of one JVM starts from what the runs before left resident.
         */
        public long peakRiseBytes() {
            return peakBytes() - startBytes;
        }
    }

    public record Measured(SessionOptions options, Run fixed, Run resized) {
    }

    /**
     * @param shapes  the shapes cycled through, the model's own first
     * @param refused shapes tried and refused, with why
     */
    public record Result(String input, List<int[]> shapes, List<ResizeProbe.Refusal> refused, List<Measured> runs) {
    }

    private ResizeCycle() {
    }

    /**
     * Measures each configuration's fixed and resized runs of {@code resizes} steps, cycling through the
     * candidates the model accepts (null: the {@link InputShapes#defaults} of its own shape), as tried in a
     * child JVM where a crash is contained ({@link ResizeProbe}). Like {@link MemoryProfile#measure}, an
     * unreported round goes first, so that loading the library and compiling Java count against no run. Each
     * step of each run is an item of {@code progress}.
     *
     * @throws IllegalArgumentException if the model accepts none of the candidates, saying for each what TFLite
     *                                  said or how it crashed
     */
    public static Result measure(Path model, List<SessionOptions> configurations, List<int[]> candidates,
                                 int resizes, Progress progress) {
        if (resizes < 1) {
            throw new IllegalArgumentException("--resize-cycle must be at least 1, got " + resizes);
        }
        try (TfLiteModel loaded = TfLiteModel.load(model)) {
            // The probe runs in child JVMs, which capture their own standard error (TFLite's reasons).
            ResizeProbe.Outcome probe = ResizeProbe.probe(loaded, configurations, candidates);
            if (probe.accepted().size() < 2) {
                throw new IllegalArgumentException(model + ": not resizable: input '" + probe.input() + "' "
                        + InputShapes.format(probe.accepted().get(0)) + (probe.refused().isEmpty()
                        ? ": no shape to try other than its own"
                        : probe.refused().stream().map(r -> "; " + r.summary()).collect(Collectors.joining())));
            }
            List<int[]> steps = new ArrayList<>();
            for (int k = 0; k <= resizes; k++) {
                steps.add(probe.accepted().get(k % probe.accepted().size()));
            }
            // Two rounds of a fixed and a resized run per configuration.
            ProgressCounter counter = new ProgressCounter(progress, 2L * configurations.size() * 2 * steps.size());
            configurations.forEach(options -> measure(loaded, options, steps, counter, "warm-up round, "));
            List<Measured> runs = configurations.stream()
                    .map(options -> measure(loaded, options, steps, counter, "")).toList();
            return new Result(probe.input(), probe.accepted(), probe.refused(), runs);
        }
    }

    private static Measured measure(TfLiteModel model, SessionOptions options, List<int[]> steps,
                                    ProgressCounter counter, String round) {
        String plan = round + options.planner() + " plan, ";
        return new Measured(options, run(model, options, steps, false, counter, plan + "fixed run"),
                run(model, options, steps, true, counter, plan + "resized run"));
    }

    /** Invokes once per shape; resizing to it first unless the run is the fixed one, which only invokes. */
    private static Run run(TfLiteModel model, SessionOptions options, List<int[]> shapes, boolean resize,
                           ProgressCounter counter, String label) {
        MemoryProfile.settle();
        PeakRss peak = PeakRss.start();
        List<Step> steps = new ArrayList<>();
        doing("allocating at", shapes.get(0), options, resize, 0);
        try (Session session = model.newSession(options)) {
            for (int k = 0; k < shapes.size(); k++) {
                int[] shape = resize ? shapes.get(k) : shapes.get(0);
                counter.next(label + ": step " + k + (resize ? ", " + InputShapes.format(shape) : ""));
                if (k > 0 && resize) {
                    doing("resizing to", shape, options, true, k);
                    session.resizeInput(0, shape);
                }
                doing("invoking at", shape, options, resize, k);
                session.run(MemoryProfile.seededInputs(session));
                steps.add(new Step(k, session.inputs().get(0).shape(), session.arenaBytes(), peak.read()));
            }
            MemoryProfile.settle();
            return new Run(steps, peak.source(), peak.startBytes(), NativeHeap.usage());
        }
    }

    /**
     * Tells the supervisor what native work comes next, so that a crash message names the shape: the probe
     * ran each shape once in another process, which makes a crash here unlikely, not impossible.
     */
    private static void doing(String what, int[] shape, SessionOptions options, boolean resize, int step) {
        Supervisor.doing(what + " " + InputShapes.format(shape) + " (planner " + options.planner() + ", "
                + (resize ? "resized" : "fixed") + " run, step " + step + " of the resize cycle)");
    }
}
