package dev.tflitearena.release.compare;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.tflite.ExtraWork;
import dev.tflitearena.graph.tflite.TfliteFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Copies of models made slower by a known, measured amount, to check a release-regression detector end to end:
 * each copy has enough extra ADD operators ({@link ExtraWork}) that its invoke takes the target percent longer,
 * and computes the same outputs. The count is calibrated: a first guess from the original's invoke time and
 * the input's size, then twice a short measurement of a count and a new count from the cost per ADD that the
 * measurements so far give together. The final slowdown is then measured with {@link PairedTime}, both
 * interpreters in this JVM, under {@link ReleaseMeasurement}'s settings: the builtin kernels without XNNPACK,
 * TFLite's default thread count, the same seeded inputs.
 */
public final class SlowedModels {
    /** The seed of {@link ReleaseMeasurement}'s inputs. */
    static final long SEED = 1;
    static final InterpreterSettings SETTINGS = InterpreterSettings.DEFAULT;
    /** Beyond this a slowed model would hold megabytes of operators; no real model's input is that cheap to add. */
    static final int MAX_OPERATIONS = 100_000;
    private static final int WARMUP = 3;
    private static final int CALIBRATION_PAIRS = 9;
    private static final int TRIALS = 2;
    /**
     * A float32 ADD's cost per element where its tensors stay in the cache, about what a 2-core x86-64 server
     * takes: only the first guess, which the trials correct.
     */
    private static final double GUESS_NANOS_PER_ELEMENT = 0.2;
    /** A new count is at most this factor from the last, so that one noisy trial cannot throw it far. */
    private static final double MAX_STEP = 8;

    private final double targetPercent;
    private final int pairs;

    public SlowedModels(double targetPercent, int pairs) {
        if (!(targetPercent > 0 && targetPercent <= 100)) {
            throw new IllegalArgumentException("the slowdown is a percent above 0 and at most 100, got "
                    + targetPercent);
        }
        if (pairs < 2) {
            throw new IllegalArgumentException("the measurement needs at least 2 pairs of samples, got " + pairs);
        }
        this.targetPercent = targetPercent;
        this.pairs = pairs;
    }

    /** A slowed model's bytes, null when it could not be made, and what was measured of it. */
    public record Slowed(byte[] model, SlowdownReport.Entry entry) {
    }

    /** The report of slowed models, each of {@link #slow}. */
    public SlowdownReport report(List<SlowdownReport.Entry> entries) {
        return new SlowdownReport(targetPercent, pairs, NativeRelease.version(), SETTINGS.resolverName(),
                SETTINGS.threads(), entries);
    }

    /**
     * Slows one model, telling {@code parts} what it is doing. A model the native runtime cannot build (a
     * custom op the builtin resolver lacks) or that has no float32 input gives an entry with the error.
     *
     * @throws IllegalStateException when an output of the slowed model differs from the original's
     */
    public Slowed slow(Path file, Consumer<String> parts) throws Exception {
        String name = file.getFileName().toString();
        byte[] bytes = Files.readAllBytes(file);
        long elements;
        try {
            elements = ExtraWork.input(TfliteFile.read(bytes, file.toString())).elements();
        } catch (IllegalArgumentException e) {
            // A corrupt model (InvalidModelException is one), or one without a float32 input.
            return new Slowed(null, SlowdownReport.Entry.failed(name, e.getMessage()));
        }
        // Both sides are copied into native memory alike, so that neither reads its constants from a mapped file.
        try (NativeModel original = NativeModel.fromBytes(bytes, file.toString());
             NativeInterpreter a = prepared(original)) {
            parts.accept("timing the original");
            double invokeNanos = SampleTime.fastestMillis(WARMUP, CALIBRATION_PAIRS, a::invoke) * 1e6;
            int operations = (int) Math.max(1, Math.min(MAX_OPERATIONS, Math.round(targetPercent / 100 * invokeNanos
                    / (GUESS_NANOS_PER_ELEMENT * Math.max(1, elements)))));
            // The slowdown grows in proportion to the count: the least-squares slope through 0 of the trials.
            double slowdownTimesCount = 0;
            double countSquared = 0;
            for (int trial = 0; trial < TRIALS; trial++) {
                parts.accept("trying " + operations + " extra ADDs");
                double found = measure(a, ExtraWork.append(bytes, operations), CALIBRATION_PAIRS).slowdownPercent();
                slowdownTimesCount += found * operations;
                countSquared += (double) operations * operations;
                operations = next(operations, slowdownTimesCount / countSquared, name);
            }
            byte[] slowed = ExtraWork.append(bytes, operations);
            parts.accept("measuring " + operations + " extra ADDs over " + pairs + " pairs");
            PairedTime time;
            try (NativeModel model = NativeModel.fromBytes(slowed, name + " slowed");
                 NativeInterpreter b = prepared(model)) {
                time = PairedTime.measure(WARMUP, pairs, a::invoke, b::invoke);
                checkOutputs(a, b, name);
            }
            return new Slowed(slowed, new SlowdownReport.Entry(name, null, operations,
                    hundredths(time.slowdownPercent()),
                    new double[]{hundredths((time.lowerRatio() - 1) * 100), hundredths((time.upperRatio() - 1) * 100)},
                    thousandths(time.aMillis()), thousandths(time.bMillis())));
        } catch (NativeException e) {
            return new Slowed(null, SlowdownReport.Entry.failed(name, e.getMessage()));
        }
    }

    private static NativeInterpreter prepared(NativeModel model) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, SETTINGS);
        try {
            interpreter.allocateTensors();
            for (int i = 0; i < interpreter.inputCount(); i++) {
                interpreter.writeInput(i, SeededInputs.of(interpreter.input(i), SEED));
            }
            return interpreter;
        } catch (RuntimeException e) {
            interpreter.close();
            throw e;
        }
    }

    /** A short measurement of a trial: how much slower {@code slowed} runs than {@code a}. */
    private static PairedTime measure(NativeInterpreter a, byte[] slowed, int pairs) throws Exception {
        try (NativeModel model = NativeModel.fromBytes(slowed, "trial");
             NativeInterpreter b = prepared(model)) {
            return PairedTime.measure(WARMUP, pairs, a::invoke, b::invoke);
        }
    }

    /**
     * The count that gives the target at {@code perOperation} percent per ADD, within {@link #MAX_STEP} of
     * the last; refused above {@link #MAX_OPERATIONS}.
     */
    private int next(int last, double perOperation, String name) {
        double wanted = perOperation <= 0 ? last * MAX_STEP : targetPercent / perOperation;
        long count = Math.round(Math.max(last / MAX_STEP, Math.min(last * MAX_STEP, wanted)));
        if (count > MAX_OPERATIONS) {
            throw new IllegalStateException(name + ": " + targetPercent + "% slower would take more than "
                    + MAX_OPERATIONS + " extra ADDs over its input");
        }
        return (int) Math.max(1, count);
    }

    /** Both were invoked on the same inputs: every output of the original must be the slowed model's too. */
    private static void checkOutputs(NativeInterpreter a, NativeInterpreter b, String name) {
        for (int i = 0; i < a.outputCount(); i++) {
            if (!Arrays.equals(a.readOutput(i), b.readOutput(i))) {
                throw new IllegalStateException(name + ": output " + i + " of the slowed model differs from the "
                        + "original's");
            }
        }
    }

    /** Percents to the hundredth: the pairs' spread is wider than that. */
    private static double hundredths(double value) {
        return Math.round(value * 100) / 100.0;
    }

    /** Milliseconds to the microsecond, the most a wall clock shared with other processes can say. */
    private static double thousandths(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
