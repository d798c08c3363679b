package dev.tflitearena.fuzz;

import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.search.OptimalPlacer;
import dev.tflitearena.progress.Progress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The exact search on instances it has never seen: {@link GuillotineInstances} one after another (the search
 * is the load, so one at a time), each asked whether it fits its capacity within a time limit. A fit is
 * validated and held to the capacity; a full instance said not to fit is a failure, as it is known to fit.
 */
public final class SolverFuzz {

    /** @param out where each instance is written as CSV, to be replayed with {@code plan}; null for nowhere */
    public record Settings(int instances, long seed, boolean harder, Duration timeLimit, Path out) {
    }

    /** One instance: what the search said and how long it took. */
    public record Outcome(int index, long seed, int buffers, long capacity, OptimalPlacer.Verdict verdict,
                          long millis, Path saved) {
    }

    /** @param failures full instances said not to fit, or fits that break the capacity or overlap */
    public record Report(List<Outcome> outcomes, List<String> failures) {
        public long count(OptimalPlacer.Verdict verdict) {
            return outcomes.stream().filter(o -> o.verdict() == verdict).count();
        }

        /** The median time, of the middle two when the count is even; 0 with no instances. */
        public double medianMillis() {
            long[] millis = outcomes.stream().mapToLong(Outcome::millis).sorted().toArray();
            int n = millis.length;
            return n == 0 ? 0 : (millis[(n - 1) / 2] + millis[n / 2]) / 2.0;
        }

        /** As in "3 fit, 1 do not fit, 2 timed out". */
        public String counts() {
            return Arrays.stream(OptimalPlacer.Verdict.values()).map(v -> count(v) + " " + describe(v))
                    .collect(Collectors.joining(", "));
        }

        public long worstMillis() {
            return outcomes.stream().mapToLong(Outcome::millis).max().orElse(0);
        }
    }

    private SolverFuzz() {
    }

    public static Report run(Settings settings, Progress progress) throws IOException {
        if (settings.out() != null) {
            Files.createDirectories(settings.out());
        }
        OptimalPlacer placer = new OptimalPlacer(settings.timeLimit());
        List<Outcome> outcomes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < settings.instances(); i++) {
            progress.advance(i, settings.instances(), new Report(outcomes, failures).counts());
            GuillotineInstances.Instance instance = GuillotineInstances.of(settings.seed(), i, settings.harder());
            BufferSet buffers = instance.buffers();
            Path saved = null;
            if (settings.out() != null) {
                saved = settings.out().resolve("instance-" + settings.seed() + "-" + i + ".csv");
                Files.write(saved, instance.csv());
            }
            OptimalPlacer.Fit fit = placer.fit(buffers, instance.capacity());
            String failure = check(instance, buffers, fit);
            if (failure != null) {
                failures.add("instance " + i + " (seed " + instance.seed() + "): " + failure);
            }
            outcomes.add(new Outcome(i, instance.seed(), buffers.buffers().size(), instance.capacity(),
                    fit.verdict(), fit.millis(), saved));
        }
        progress.advance(settings.instances(), settings.instances(), new Report(outcomes, failures).counts());
        return new Report(outcomes, failures);
    }

    private static String check(GuillotineInstances.Instance instance, BufferSet buffers, OptimalPlacer.Fit fit) {
        if (fit.verdict() == OptimalPlacer.Verdict.DOES_NOT_FIT && instance.packing() != null) {
            return "said not to fit " + instance.capacity() + " bytes, which it is built to fit";
        }
        if (fit.verdict() != OptimalPlacer.Verdict.FITS) {
            return null;
        }
        try {
            buffers.validate(fit.offsets());
        } catch (RuntimeException e) {
            return "its fit is invalid: " + e.getMessage();
        }
        long arena = buffers.arenaBytes(fit.offsets());
        return arena > instance.capacity() ? "its fit takes " + arena + " bytes, over " + instance.capacity() : null;
    }

    /** A verdict as counted: "fit", "do not fit", "timed out". */
    public static String describe(OptimalPlacer.Verdict verdict) {
        return switch (verdict) {
            case FITS -> "fit";
            case DOES_NOT_FIT -> "do not fit";
            case TIMED_OUT -> "timed out";
        };
    }

}
