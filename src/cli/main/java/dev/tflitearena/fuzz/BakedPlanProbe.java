package dev.tflitearena.fuzz;

import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.fuzz.BakedPlanTampering.Expect;
import dev.tflitearena.isolation.ChildProbe;
import dev.tflitearena.session.BakedPlanUse;
import dev.tflitearena.session.Outputs;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.SessionPool;
import dev.tflitearena.session.TensorInfo;
import dev.tflitearena.session.TfLiteModel;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The child side of {@link BakedPlanFuzz}: puts each tampered model through what a server would do with it
 * ({@code TfLiteModel.load}, sessions with the baked plan {@code IF_VALID}, {@code REQUIRED} and {@code IGNORED},
 * a pool) and compares every output with the original model's on a native-planned session. An item ends
 * {@code ok} when all is as it must be, else {@code failed} with the first violation, its kind first:
 * {@value #IF_VALID_THREW}, {@value #REQUIRED_ACCEPTED}, {@value #OUTPUTS_DIFFER} or {@value #OTHER}.
 */
public final class BakedPlanProbe {
    static final String IF_VALID_THREW = "if_valid_threw";
    static final String REQUIRED_ACCEPTED = "required_accepted";
    static final String OUTPUTS_DIFFER = "outputs_differ";
    static final String OTHER = "other";
    private static final SessionOptions OPTIONS = SessionOptions.DEFAULT.withPlanner("tflite");
    private static final long[] SEEDS = {1, 2};

    /**
     * The outputs of each original, by path: of one session, a run per seed in turn, and last of a pool, whose
     * session has run once to warm up (a stateful model's outputs depend on the runs before).
     */
    private final Map<Path, byte[][][]> expected = new HashMap<>();

    private BakedPlanProbe() {
    }

    /** The items are tampered models, each named NAME-EXPECT.tflite beside its original. */
    public static void main(String[] args) {
        BakedPlanProbe probe = new BakedPlanProbe();
        ChildProbe.each(List.of(args), probe::check);
    }

    /** A violation of what a session must do with a tampered plan. */
    static final class Violation extends IllegalStateException {
        Violation(String kind, String what) {
            super(kind + ": " + what);
        }
    }

    /** Every exception is a violation: of IF_VALID's contract while its session or pool is built or runs. */
    private void check(String item, Consumer<String> report) {
        String[] current = {"load"};
        Consumer<String> stage = name -> {
            current[0] = name;
            report.accept(name);
        };
        try {
            checkStages(item, stage);
        } catch (Violation v) {
            throw v;
        } catch (RuntimeException e) {
            boolean ifValid = current[0].equals("IF_VALID") || current[0].equals("pool");
            throw new Violation(ifValid ? IF_VALID_THREW : OTHER, current[0] + ": " + e);
        }
    }

    private void checkStages(String item, Consumer<String> stage) {
        Path file = Path.of(item);
        Expect expect = BakedPlanFuzz.expectOf(file);
        byte[][][] reference = expected.computeIfAbsent(file.resolveSibling(BakedPlanFuzz.ORIGINAL), BakedPlanProbe::nativeOutputs);
        stage.accept("load");
        try (TfLiteModel model = call(OTHER, "TfLiteModel.load", () -> TfLiteModel.load(file))) {
            stage.accept("IF_VALID");
            try (Session session = call(IF_VALID_THREW, "a session", () -> model.newSession(OPTIONS))) {
                compare(reference, session, "IF_VALID");
            }
            stage.accept("IGNORED");
            try (Session session = call(OTHER, "a session IGNORED threw",
                    () -> model.newSession(OPTIONS.withBakedPlan(BakedPlanUse.IGNORED)))) {
                compare(reference, session, "IGNORED");
            }
            stage.accept("REQUIRED");
            required(model, expect, reference);
            stage.accept("pool");
            try (SessionPool pool = call(IF_VALID_THREW, "a pool", () -> model.newPool(OPTIONS, 1,
                    Duration.ofSeconds(30)))) {
                byte[][] got = run(pool::run, pool.inputs(), 0);
                same(reference[SEEDS.length], got, "a pool, IF_VALID");
            }
        }
    }

    private static void required(TfLiteModel model, Expect expect, byte[][][] reference) {
        Session session;
        try {
            session = model.newSession(OPTIONS.withBakedPlan(BakedPlanUse.REQUIRED));
        } catch (IllegalStateException e) {
            if (expect == Expect.ACCEPTED) {
                throw new Violation(OTHER, "REQUIRED refused a plan it must accept: " + e.getMessage());
            }
            return;
        } catch (RuntimeException e) {
            throw new Violation(OTHER, "REQUIRED threw " + e + ", not IllegalStateException");
        }
        try (session) {
            if (expect == Expect.REFUSED) {
                throw new Violation(REQUIRED_ACCEPTED, "REQUIRED accepted a wrong plan");
            }
            compare(reference, session, "REQUIRED");
        }
    }

    private interface Call<T> {
        T call();
    }

    private static <T> T call(String kind, String what, Call<T> call) {
        try {
            return call.call();
        } catch (RuntimeException e) {
            throw new Violation(kind, what + " threw " + e);
        }
    }

    private static void compare(byte[][][] reference, Session session, String mode) {
        for (int s = 0; s < SEEDS.length; s++) {
            byte[][] got = run(session::run, session.inputs(), s);
            same(reference[s], got, mode);
        }
    }

    private static void same(byte[][] expected, byte[][] got, String mode) {
        for (int o = 0; o < expected.length; o++) {
            if (!Arrays.equals(expected[o], got[o])) {
                throw new Violation(OUTPUTS_DIFFER, mode + ": output " + o + " differs at byte "
                        + Arrays.mismatch(expected[o], got[o]));
            }
        }
    }

    private interface Runner {
        Outputs run(Object... values) throws Exception;
    }

    /** Every output's bytes after a run on the seeded inputs of {@code SEEDS[seed]}, at the sizes the run gave. */
    private static byte[][] run(Runner runner, List<TensorInfo> inputs, int seed) {
        Object[] values = new Object[inputs.size()];
        for (int i = 0; i < values.length; i++) {
            TensorInfo input = inputs.get(i);
            byte[] data = SeededInputs.of(input.index(), input.bytes(), input.type(), SEEDS[seed]);
            values[i] = ByteBuffer.allocateDirect(data.length).order(ByteOrder.nativeOrder()).put(data).flip();
        }
        Outputs result;
        try {
            result = runner.run(values);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("a run of the pool: " + e, e);
        }
        byte[][] bytes = new byte[result.infos().size()][];
        for (int o = 0; o < bytes.length; o++) {
            ByteBuffer target = ByteBuffer.allocate(Math.toIntExact(result.info(o).bytes()));
            result.copyTo(o, target);
            bytes[o] = target.array();
        }
        return bytes;
    }

    private static byte[][][] nativeOutputs(Path original) {
        SessionOptions nativePlan = SessionOptions.DEFAULT.withBakedPlan(BakedPlanUse.IGNORED);
        byte[][][] outputs = new byte[SEEDS.length + 1][][];
        try (TfLiteModel model = TfLiteModel.load(original)) {
            try (Session session = model.newSession(nativePlan)) {
                for (int s = 0; s < SEEDS.length; s++) {
                    outputs[s] = run(session::run, session.inputs(), s);
                }
            }
            try (SessionPool pool = model.newPool(nativePlan, 1, Duration.ofSeconds(30))) {
                outputs[SEEDS.length] = run(pool::run, pool.inputs(), 0);
            }
        }
        return outputs;
    }
}
