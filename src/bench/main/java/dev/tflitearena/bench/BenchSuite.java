package dev.tflitearena.bench;

import dev.tflitearena.progress.Progress;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One JMH run of the benchmarks in this package, writing JMH's JSON to {@code result} and its report, which it
 * would print, to {@code log}.
 *
 * <p>A full run takes 2 forks of 3 warm-up and 5 measured one-second iterations per benchmark and parameter
 * set: enough iterations for a median and its interval, and a second fork so one JVM's JIT luck does not
 * decide a ratio. A quick run takes one fork, no warm-up and one short iteration each: it proves that every
 * benchmark runs and measures nothing.
 *
 * <p>{@link ThroughputBenchmark} runs only when {@code throughput} is set, and then alone: it answers another
 * question (what a caller gets, against DJL) and takes as long as the rest. Its DJL variant is timed only if
 * {@link DjlCheck} passes on every model first.
 *
 * @param models    model file names in {@code modelsDirectory}
 * @param planners  Java planners; empty for each benchmark's own default
 * @param forks     JMH forks, or -1 for the default; 0 runs in this JVM (needed under qemu-user without
 *                  binfmt_misc, where a forked JVM cannot start)
 */
public record BenchSuite(boolean quick, boolean throughput, List<String> models, Path modelsDirectory,
                         List<String> planners, String include, int forks, Path result, Path log) {
    /** The {@code model} parameter's default values. */
    public static final List<String> DEFAULT_MODELS = defaultModels();
    /** JMH's filter for every benchmark of this package. */
    public static final String ALL_BENCHMARKS = "dev\\.tflitearena\\.bench\\.";
    public static final int DEFAULT_FORKS = -1;
    /** A full run's JMH settings, per benchmark and parameter set. */
    public static final int FULL_FORKS = 2;
    public static final int FULL_WARMUP_ITERATIONS = 3;
    public static final int FULL_MEASURED_ITERATIONS = 5;
    public static final int FULL_ITERATION_SECONDS = 1;
    private static final String THROUGHPUT = "\\." + ThroughputBenchmark.class.getSimpleName() + "\\.";
    private static final String DJL = ThroughputBenchmark.class.getName() + ".djl";

    private static List<String> defaultModels() {
        try {
            return List.of(PreparedModel.class.getField("model").getAnnotation(Param.class).value());
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the benchmarks, telling {@code progress} which one runs; returns DJL's check of each model, none
     * when DJL is not among them.
     */
    public List<DjlCheck> run(Progress progress) throws RunnerException, IOException {
        String directory = modelsDirectory.toAbsolutePath().toString();
        // A forked JVM gets the property on its command line; a run without forks reads this JVM's.
        System.setProperty(PreparedModel.MODELS_PROPERTY, directory);
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(include)
                // JMH's excludes win over its includes: keep either the throughput benchmark or the others.
                .exclude(throughput ? "^(?!.*" + THROUGHPUT + ")" : THROUGHPUT)
                .param("model", models.toArray(String[]::new))
                .jvmArgsAppend("-D" + PreparedModel.MODELS_PROPERTY + "=" + directory)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(result.toString());
        if (!planners.isEmpty()) {
            options.param("planner", planners.toArray(String[]::new));
        }
        if (quick) {
            options.forks(1).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(100));
        } else {
            options.forks(FULL_FORKS).warmupIterations(FULL_WARMUP_ITERATIONS)
                    .warmupTime(TimeValue.seconds(FULL_ITERATION_SECONDS)).measurementIterations(FULL_MEASURED_ITERATIONS)
                    .measurementTime(TimeValue.seconds(FULL_ITERATION_SECONDS));
        }
        if (forks != DEFAULT_FORKS) {
            options.forks(forks);
        }
        boolean withDjl = throughput && Pattern.compile(include).matcher(DJL).find();
        if (withDjl) {
            progress.step("checking DJL's outputs against ours");
        }
        List<DjlCheck> djl = withDjl ? DjlCheck.of(models) : List.of();
        if (!djl.stream().allMatch(DjlCheck::passed)) {
            options.exclude(Pattern.quote(DJL));
        }
        try (PrintStream report = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
            new Runner(options.build(), new JmhProgress(report, progress)).run();
        } catch (RunnerException e) {
            throw new RunnerException(e.getMessage() + " (JMH's report: " + log + ")", e);
        }
        return djl;
    }
}
