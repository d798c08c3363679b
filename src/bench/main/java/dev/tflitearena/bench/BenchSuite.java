package dev.tflitearena.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One JMH run of the benchmarks in this package, writing JMH's JSON to {@code result}.
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
                         List<String> planners, String include, int forks, Path result) {
    /** The {@code model} parameter's default values. */
    public static final List<String> DEFAULT_MODELS = defaultModels();
    /** JMH's filter for every benchmark of this package. */
    public static final String ALL_BENCHMARKS = "dev\\.tflitearena\\.bench\\.";
    public static final int DEFAULT_FORKS = -1;
    private static final String THROUGHPUT = "\\." + ThroughputBenchmark.class.getSimpleName() + "\\.";
    private static final String DJL = ThroughputBenchmark.class.getName() + ".djl";

    private static List<String> defaultModels() {
        try {
            return List.of(PreparedModel.class.getField("model").getAnnotation(Param.class).value());
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the benchmarks; returns DJL's check of each model, none when DJL is not among them. */
    public List<DjlCheck> run() throws RunnerException {
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
            options.forks(2).warmupIterations(3).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(1));
        }
        if (forks != DEFAULT_FORKS) {
            options.forks(forks);
        }
        List<DjlCheck> djl = throughput && Pattern.compile(include).matcher(DJL).find() ? DjlCheck.of(models)
                : List.of();
        if (!djl.stream().allMatch(DjlCheck::passed)) {
            options.exclude(Pattern.quote(DJL));
        }
        new Runner(options.build()).run();
        return djl;
    }
}
