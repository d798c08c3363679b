package dev.tflitearena.memory;

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
     * candidates the model accepts (null: the {@link InputShapes#defaults} of its own shape). Like
     * {@link MemoryProfile#measure}, an unreported round goes first, so that loading the library and
     * compiling Java count against no run.
     *
     * @throws IllegalArgumentException if the model accepts none of the candidates, saying what TFLite said
     */
    public static Result measure(Path model, List<SessionOptions> configurations, List<int[]> candidates,
                                 int resizes) {
        if (resizes < 1) {
            throw new IllegalArgumentException("--resize-cycle must be at least 1, got " + resizes);
        }
        try (TfLiteModel loaded = TfLiteModel.load(model)) {
            ResizeProbe.Outcome probe = ResizeProbe.probe(loaded, configurations, candidates);
            if (probe.accepted().size() < 2) {
                throw new IllegalArgumentException(model + ": not resizable: input '" + probe.input() + "' "
                        + InputShapes.format(probe.accepted().get(0)) + (probe.refused().isEmpty()
                        ? ": no shape to try other than its own"
                        : probe.refused().stream().map(r -> "; " + InputShapes.format(r.shape()) + " refused: "
                        + r.reason()).collect(Collectors.joining())));
            }
            List<int[]> steps = new ArrayList<>();
            for (int k = 0; k <= resizes; k++) {
                steps.add(probe.accepted().get(k % probe.accepted().size()));
            }
            configurations.forEach(options -> measure(loaded, options, steps));
            List<Measured> runs = configurations.stream().map(options -> measure(loaded, options, steps)).toList();
            return new Result(probe.input(), probe.accepted(), probe.refused(), runs);
        }
    }

    private static Measured measure(TfLiteModel model, SessionOptions options, List<int[]> steps) {
        return new Measured(options, run(model, options, steps, false), run(model, options, steps, true));
    }

    /** Invokes once per shape; resizing to it first unless the run is the fixed one, which only invokes. */
    private static Run run(TfLiteModel model, SessionOptions options, List<int[]> shapes, boolean resize) {
        MemoryProfile.settle();
        PeakRss peak = PeakRss.start();
        List<Step> steps = new ArrayList<>();
        try (Session session = model.newSession(options)) {
            for (int k = 0; k < shapes.size(); k++) {
                if (k > 0 && resize) {
                    session.resizeInput(0, shapes.get(k));
                }
                session.run(MemoryProfile.seededInputs(session));
                steps.add(new Step(k, session.inputs().get(0).shape(), session.arenaBytes(), peak.read()));
            }
            MemoryProfile.settle();
            return new Run(steps, peak.source(), peak.startBytes(), NativeHeap.usage());
        }
    }
}
