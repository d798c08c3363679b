package dev.tflitearena.bench;

import dev.tflitearena.progress.Progress;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JmhProgressTest {
    @Test
    void jmhsReportGoesToTheLogAndTheBenchmarkUnderWayToTheProgress() {
        List<String> steps = new ArrayList<>();
        Progress progress = new Progress() {
            @Override
            public void advance(long done, long total, String label) {
                throw new AssertionError("JMH gives no count");
            }

            @Override
            public void step(String label) {
                steps.add(label);
            }
        };
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        JmhProgress format = new JmhProgress(new PrintStream(log, true, StandardCharsets.UTF_8), progress);
        // As JMH does it: the benchmark's header, then its estimate, then the fork.
        format.startBenchmark(params(PlanningBenchmark.class.getName() + ".javaPlanner"));
        format.println("");
        format.println("# Run progress: 25.00% complete, ETA 00:10:00");
        format.println("# Fork: 1 of 2");
        format.flush();
        String benchmark = "PlanningBenchmark.javaPlanner (model=a.tflite, planner=tflite)";
        assertEquals(List.of(benchmark, "25.00% complete, ETA 00:10:00, " + benchmark), steps);
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("# Benchmark: dev.tflitearena.bench.PlanningBenchmark.javaPlanner"), text);
        assertTrue(text.contains("# Run progress: 25.00% complete, ETA 00:10:00"), text);
        assertTrue(text.contains("# Fork: 1 of 2"), text);
    }

    private static BenchmarkParams params(String benchmark) {
        WorkloadParams workload = new WorkloadParams();
        workload.put("model", "a.tflite", 0);
        workload.put("planner", "tflite", 1);
        IterationParams iterations = new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);
        return new BenchmarkParams(benchmark, benchmark, false, 1, new int[]{1}, List.of(), 1, 0, iterations,
                iterations, Mode.AverageTime, workload, TimeUnit.MICROSECONDS, 1, "java", List.of(), "17", "vm",
                "17", "1.37", TimeValue.minutes(10));
    }
}
