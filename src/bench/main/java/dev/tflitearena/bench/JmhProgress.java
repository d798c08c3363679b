package dev.tflitearena.bench;

import dev.tflitearena.progress.Progress;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * JMH's report, as JMH prints it, to a log file instead of standard output, and the benchmark under way to a
 * {@link Progress}, after JMH's own estimate of how far the run is ("25.00% complete, ETA 00:10:00"), which
 * comes first so that a narrow terminal cuts the parameters instead.
 */
final class JmhProgress implements OutputFormat {
    private static final String RUN_PROGRESS = "# Run progress: ";
    private static final String PACKAGE = JmhProgress.class.getPackageName() + ".";

    private final OutputFormat log;
    private final Progress progress;
    private String benchmark = "";

    JmhProgress(PrintStream log, Progress progress) {
        this.log = OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL);
        this.progress = progress;
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        log.startBenchmark(params);
        String name = params.getBenchmark().replace(PACKAGE, "");
        benchmark = params.getParamsKeys().isEmpty() ? name : name + " (" + params.getParamsKeys().stream()
                .map(key -> key + "=" + params.getParam(key)).collect(Collectors.joining(", ")) + ")";
        progress.step(benchmark);
    }

    /** JMH says how far the run is in a line of its report before each fork of a benchmark. */
    @Override
    public void println(String line) {
        log.println(line);
        if (line.startsWith(RUN_PROGRESS)) {
            progress.step(line.substring(RUN_PROGRESS.length()) + ", " + benchmark);
        }
    }

    @Override
    public void iteration(BenchmarkParams benchmark, IterationParams params, int iteration) {
        log.iteration(benchmark, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchmark, IterationParams params, int iteration,
                                IterationResult result) {
        log.iterationResult(benchmark, params, iteration, result);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        log.endBenchmark(result);
    }

    @Override
    public void startRun() {
        log.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> results) {
        log.endRun(results);
    }

    @Override
    public void print(String text) {
        log.print(text);
    }

    @Override
    public void flush() {
        log.flush();
    }

    @Override
    public void close() {
        log.close();
    }

    @Override
    public void verbosePrintln(String line) {
        log.verbosePrintln(line);
    }

    @Override
    public void write(int b) {
        log.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        log.write(b);
    }
}
