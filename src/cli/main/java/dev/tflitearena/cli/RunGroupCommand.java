package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.output.GroupReport;
import dev.tflitearena.session.ArenaGroup;
import dev.tflitearena.session.BakedPlanUse;
import dev.tflitearena.session.Outputs;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.TensorInfo;
import dev.tflitearena.session.TfLiteModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "run-group", mixinStandardHelpOptions = true,
        description = "Runs models one after another on one Java arena, planned as plan-group plans it (an "
                + "ArenaGroup of the session API), beside each model alone on a native-planned session; feeds "
                + "both the same seeded inputs, model after model, and compares every output byte for byte. "
                + "A model may be given twice. Exit status 0 only when all outputs are identical.")
final class RunGroupCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite", arity = "1..*")
    List<Path> models;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The Java planner of the group's arena (default: ${DEFAULT-VALUE}).")
    String planner;

    @Option(names = "--invokes", defaultValue = "3", paramLabel = "N",
            description = "Rounds: each runs every model once, in order (default: ${DEFAULT-VALUE}).")
    int invokes;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the input data; round i uses S + i (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--xnnpack", description = "Delegate float graphs to XNNPACK, in the group and alone.")
    boolean xnnpack;

    @Mixin
    Output output;

    private record Result(ArenaGroup group, String firstDifference, int rounds) {
    }

    @Override
    public Integer call() {
        if (invokes < 1) {
            throw new IllegalArgumentException("--invokes must be at least 1, got " + invokes);
        }
        SessionOptions reference = SessionOptions.DEFAULT.withXnnpack(xnnpack).withBakedPlan(BakedPlanUse.IGNORED);
        List<TfLiteModel> loaded = new ArrayList<>();
        List<Session> alone = new ArrayList<>();
        try {
            for (Path model : models) {
                loaded.add(TfLiteModel.load(model));
                alone.add(loaded.get(loaded.size() - 1).newSession(reference));
            }
            try (ArenaGroup group = ArenaGroup.of(loaded, reference.withPlanner(planner))) {
                Result result = compare(group, alone);
                output.print(() -> toJson(result), out -> printText(out, result));
                return result.firstDifference() == null ? 0 : CompareCommand.EXIT_DIFFERENT;
            }
        } finally {
            alone.forEach(Session::close);
            loaded.forEach(TfLiteModel::close);
        }
    }

    /** Every model once per round, in group order, each on the same inputs as its native-planned session. */
    private Result compare(ArenaGroup group, List<Session> alone) {
        for (int round = 0; round < invokes; round++) {
            long roundSeed = seed + round;
            for (int m = 0; m < group.size(); m++) {
                Object[] values = group.inputs(m).stream().map(i -> seeded(i, roundSeed)).toArray();
                Outputs expected = alone.get(m).run(values);
                Outputs actual = group.run(m, values);
                for (int o = 0; o < group.outputs(m).size(); o++) {
                    int at = Arrays.mismatch(bytes(expected, o), bytes(actual, o));
                    if (at >= 0) {
                        return new Result(group, "round " + round + ", model " + m + " (" + models.get(m)
                                + "), output " + o + " differs first at byte " + at, round + 1);
                    }
                }
            }
        }
        return new Result(group, null, invokes);
    }

    private static ByteBuffer seeded(TensorInfo input, long seed) {
        byte[] data = SeededInputs.of(input.index(), input.bytes(), input.type(), seed);
        return ByteBuffer.allocateDirect(data.length).order(ByteOrder.nativeOrder()).put(data).flip();
    }

    private static byte[] bytes(Outputs outputs, int index) {
        ByteBuffer copy = ByteBuffer.allocate(Math.toIntExact(outputs.infos().get(index).bytes()));
        outputs.copyTo(index, copy);
        return copy.array();
    }

    private ObjectNode toJson(Result r) {
        ObjectNode root = GroupReport.toJson(models, r.group().plan());
        root.put("outputs_identical", r.firstDifference() == null);
        if (r.firstDifference() != null) {
            root.put("first_difference", r.firstDifference());
        }
        root.put("rounds", r.rounds());
        root.put("seed", seed);
        return root;
    }

    private void printText(PrintWriter out, Result r) {
        GroupReport.printText(out, models, r.group().plan());
        out.printf("%d round%s of every model, seed %d: outputs %s%n", r.rounds(), r.rounds() == 1 ? "" : "s", seed,
                r.firstDifference() == null ? "identical to each model run alone (native-planned)"
                        : "DIFFERENT (" + r.firstDifference() + ")");
    }
}
