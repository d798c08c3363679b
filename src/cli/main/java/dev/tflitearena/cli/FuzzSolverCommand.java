package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.TimeLimitOption;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.fuzz.GuillotineInstances;
import dev.tflitearena.fuzz.SolverFuzz;
import dev.tflitearena.plan.search.OptimalPlacer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "fuzz-solver", mixinStandardHelpOptions = true,
        description = "The exact search ('optimal') on seeded instances it was never tuned on, of the shape of "
                + "MiniMalloc's hard ones: " + GuillotineInstances.MIN_BUFFERS + "-" + GuillotineInstances.MAX_BUFFERS
                + " buffers cut from a full time x memory rectangle, so that each fits a capacity of "
                + GuillotineInstances.CAPACITY + " bytes with no byte to spare. Each instance is asked whether it "
                + "fits within the time limit; prints per instance the answer and the time, then how many fit, "
                + "the median and the worst time. With --harder, the buffers at one height are taken out and the "
                + "capacity asked is the rest's lower bound, which need not fit. Exit status 0 unless an answer "
                + "is wrong (a full instance said not to fit, a fit over the capacity or overlapping).")
final class FuzzSolverCommand implements Callable<Integer> {
    @Option(names = "--instances", defaultValue = "20", paramLabel = "N",
            description = "Instances to solve (default: ${DEFAULT-VALUE}).")
    int instances;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the run; instance i is a function of S and i alone (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--time-limit", defaultValue = "60", paramLabel = "SECONDS",
            description = "How long the search may take per instance (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--harder", description = "Ask below the packing the instance was cut from (see above).")
    boolean harder;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write each instance there as instance-S-I.csv, to replay with "
                    + "plan FILE --planner optimal --capacity BYTES.")
    Path out;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws IOException {
        if (instances < 0 || !(timeLimit >= 0)) {
            throw new IllegalArgumentException("--instances and --time-limit must not be negative");
        }
        if (out != null) {
            WritablePath.checkDirectory(out);
        }
        SolverFuzz.Report report;
        try (ProgressDisplay display = progress.open()) {
            report = SolverFuzz.run(new SolverFuzz.Settings(instances, seed, harder, TimeLimitOption.duration(timeLimit),
                    out), display);
        }
        output.print(() -> json(report), o -> print(o, report));
        return report.failures().isEmpty() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private ObjectNode json(SolverFuzz.Report r) {
        ObjectNode root = Json.object();
        root.put("seed", seed);
        root.put("harder", harder);
        root.put("time_limit_seconds", timeLimit);
        root.put("instances", r.outcomes().size());
        for (OptimalPlacer.Verdict v : OptimalPlacer.Verdict.values()) {
            root.put(v.name().toLowerCase(), r.count(v));
        }
        root.put("median_millis", r.medianMillis());
        root.put("worst_millis", r.worstMillis());
        ArrayNode list = root.putArray("outcomes");
        for (SolverFuzz.Outcome o : r.outcomes()) {
            ObjectNode j = list.addObject();
            j.put("instance", o.index());
            j.put("instance_seed", o.seed());
            j.put("buffers", o.buffers());
            j.put("capacity", o.capacity());
            j.put("verdict", o.verdict().name().toLowerCase());
            j.put("millis", o.millis());
            if (o.saved() != null) {
                j.put("file", o.saved().toString());
            }
        }
        r.failures().forEach(root.putArray("failures")::add);
        return root;
    }

    private void print(PrintWriter out, SolverFuzz.Report r) {
        TextTable table = new TextTable("instance", "buffers", "capacity", "verdict", "ms");
        for (SolverFuzz.Outcome o : r.outcomes()) {
            table.add(o.index(), o.buffers(), o.capacity(), SolverFuzz.describe(o.verdict()), o.millis());
        }
        table.print(out);
        out.printf("%d instances (seed %d%s), time limit %s s: %s; median %.1f s, worst %.1f s%n",
                r.outcomes().size(), seed, harder ? ", harder" : "", timeLimit, r.counts(), r.medianMillis() / 1000,
                r.worstMillis() / 1000.0);
        r.failures().forEach(out::println);
        out.println(r.failures().isEmpty() ? "no wrong answers" : "WRONG ANSWERS");
    }
}
