package dev.tflitearena.bench;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How long a full {@code bench} takes, as its help and the release engineers' guide ({@code
 * docs/release-engineers.md}, "Benchmarks") say, against the suite's JMH settings.
 */
class BenchDurationTest {
    /** What starting a fork's JVM and preparing its model took here, measured on 2 busy cores: 1.5 s. */
    private static final double MOST_SECONDS_PER_FORK = 2;
    private static final Pattern DURATION = Pattern.compile("takes about (\\d+) minutes on 2 cores");

    @Test
    void benchHelpAndTheGuideGiveTheSameDurationAndItsArithmetic() throws IOException {
        int sets = 0;
        for (BenchmarkListEntry benchmark : BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT),
                List.of(BenchSuite.ALL_BENCHMARKS), List.of("\\.ThroughputBenchmark\\."))) {
            int combinations = 1;
            for (Map.Entry<String, String[]> param : benchmark.getParams().orElse(Map.of()).entrySet()) {
                combinations *= param.getKey().equals("model") ? BenchSuite.DEFAULT_MODELS.size()
                        : param.getValue().length;
            }
            sets += combinations;
        }
        int forks = sets * BenchSuite.FULL_FORKS;
        double iterationMinutes = forks * (BenchSuite.FULL_WARMUP_ITERATIONS + BenchSuite.FULL_MEASURED_ITERATIONS)
                * BenchSuite.FULL_ITERATION_SECONDS / 60.0;
        List<String> arithmetic = List.of(sets + " benchmark and parameter sets",
                "(" + sets / BenchSuite.DEFAULT_MODELS.size() + " per model)",
                BenchSuite.FULL_FORKS + " forks", "(" + BenchSuite.FULL_WARMUP_ITERATIONS + " warm-up + "
                        + BenchSuite.FULL_MEASURED_ITERATIONS + " measured) " + BenchSuite.FULL_ITERATION_SECONDS
                        + " s iterations",
                String.format(Locale.ROOT, "%.1f minutes of iterations", iterationMinutes), forks + " forks");

        StringWriter out = new StringWriter();
        assertEquals(0, BenchCommand.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "--help"));
        String help = oneLine(out.toString());
        String guide = oneLine(Files.readString(Path.of("docs/release-engineers.md")));
        for (String part : arithmetic) {
            assertTrue(help.contains(part), "bench --help lacks '" + part + "': " + help);
            assertTrue(guide.contains(part), "docs/release-engineers.md lacks '" + part + "'");
        }
        int minutes = minutes(help);
        assertEquals(minutes, minutes(guide));
        assertTrue(minutes >= Math.round(iterationMinutes)
                && minutes <= Math.round(iterationMinutes + forks * MOST_SECONDS_PER_FORK / 60), minutes + " minutes");
    }

    private static int minutes(String text) {
        Matcher m = DURATION.matcher(text);
        assertTrue(m.find(), text);
        return Integer.parseInt(m.group(1));
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ");
    }
}
