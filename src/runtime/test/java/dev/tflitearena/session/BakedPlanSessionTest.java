package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.nativelayer.RecordedLogs;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.catalog.Planners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sessions and pools of a model with a plan baked in ({@code bake --for tflite}): they run on it, and every plan
 * that cannot serve them, for its fingerprint, its bytes or what the validator says, is named, in a log line
 * (the default) or a refusal ({@link BakedPlanUse#REQUIRED}).
 */
class BakedPlanSessionTest {
    private static final Path MODEL = TestModels.named("hand_landmark_full.tflite");
    private static final String LOGGER = InterpreterRecipe.class.getName();
    private static final SessionOptions TFLITE = SessionOptions.DEFAULT.withPlanner("tflite");

    @BeforeEach
    void clearLogs() {
        RecordedLogs.clear();
    }

    private static PlanBaking.Baked bake(Path model, SessionOptions options, String planner) throws IOException {
        return PlanBaking.forTflite(Files.readAllBytes(model), model.toString(), options,
                Planners.byName(planner, Duration.ofSeconds(1)), false);
    }

    private static long rwBytes(Plan plan) {
        return plan.subgraphs().stream().mapToLong(SubgraphPlan::arenaBytes).sum();
    }

    /** The outputs of the model's native-planned session and of {@code options}'s session of {@code bytes}. */
    private static void assertNativeOutputs(byte[] bytes, SessionOptions options, long expectedArena) {
        try (TfLiteModel reference = TfLiteModel.load(MODEL);
             Session expected = reference.newSession(SessionOptions.DEFAULT);
             TfLiteModel model = TfLiteModel.load(bytes);
             Session got = model.newSession(options)) {
            assertEquals(expectedArena, got.arenaBytes());
            for (long seed = 1; seed <= 2; seed++) {
                float[] values = SessionTest.randomInput(got.inputs().get(0), seed);
                Outputs a = expected.run((Object) values);
                Outputs b = got.run((Object) values);
                for (TensorInfo output : got.outputs()) {
                    assertArrayEquals(a.floats(output.index()), b.floats(output.index()), output.toString());
                }
            }
        }
    }

    @Test
    void aSessionRunsOnTheBakedPlanWhateverPlannerItNames() throws IOException {
        PlanBaking.Baked baked = bake(MODEL, TFLITE.withReleaseInputs(true), "best-of");
        long arena = rwBytes(baked.plan().plan());
        assertTrue(arena < baked.nativeArenaBytes(), arena + " >= " + baked.nativeArenaBytes());
        SessionOptions released = TFLITE.withReleaseInputs(true);
        assertNativeOutputs(baked.model(), released, arena);
        assertNativeOutputs(baked.model(), released.withPlanner("greedy-by-size"), arena);
        assertEquals(List.of(), RecordedLogs.of(LOGGER), "nothing to say when the plan serves");
        assertNativeOutputs(baked.model(), released.withBakedPlan(BakedPlanUse.IGNORED), rwBytes(
                Planners.byName("tflite", Duration.ZERO).plan(baked.graph())));
    }

    @Test
    void aPlanForOtherOptionsIsLoggedAndPlannedAfreshOrRefusedWhenRequired() throws IOException {
        PlanBaking.Baked baked = bake(MODEL, TFLITE.withReleaseInputs(true), "best-of");
        long kept = rwBytes(Planners.byName("tflite", Duration.ZERO).plan(baked.graph().withReleaseInputs(false)));
        assertNativeOutputs(baked.model(), TFLITE, kept);
        List<RecordedLogs.Event> logged = RecordedLogs.of(LOGGER);
        assertEquals(1, logged.size(), logged.toString());
        assertTrue(logged.get(0).message().endsWith(" bytes: baked plan not used, planning with tflite: the plan releases "
                + "graph inputs after their last consumer, the session keeps them to the end"), logged.get(0).message());

        RecordedLogs.clear();
        try (TfLiteModel model = TfLiteModel.load(baked.model());
             Session native_ = model.newSession(SessionOptions.DEFAULT.withXnnpack(true))) {
            String where = "in-memory model of " + baked.model().length + " bytes";
            assertEquals(List.of(where + ": baked plan not used, planning with native: the plan releases graph "
                    + "inputs after their last consumer, the session keeps them to the end; the plan is for XNNPACK "
                    + "off, the session delegates to it"), RecordedLogs.of(LOGGER).stream()
                    .map(RecordedLogs.Event::message).toList());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> model.newSession(TFLITE.withBakedPlan(BakedPlanUse.REQUIRED)));
            assertEquals(where + ": the session requires the model's baked plan, which cannot serve it: the plan "
                    + "releases graph inputs after their last consumer, the session keeps them to the end",
                    e.getMessage());
        }
    }

    @Test
    void aModelWithoutAPlanIsRefusedOnlyWhenOneIsRequired() {
        try (TfLiteModel model = TfLiteModel.load(MODEL)) {
            model.newSession(TFLITE).close();
            assertEquals(List.of(), RecordedLogs.of(LOGGER));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> model.newSession(TFLITE.withBakedPlan(BakedPlanUse.REQUIRED)));
            assertTrue(e.getMessage().endsWith("cannot serve it: the model carries none (metadata "
                    + "'tflite_arena.plan'; 'bake --for tflite' writes it)"), e.getMessage());
        }
    }

    @Test
    void aPlanFromAnotherModelIsNeverUsed() throws IOException {
        PlanBaking.Baked baked = bake(MODEL, TFLITE, "tflite");
        byte[] other = MetadataWriter.put(SampleModels.residual(), BakedPlan.NAME, baked.plan().encode(), false);
        try (TfLiteModel model = TfLiteModel.load(other)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> model.newSession(TFLITE.withBakedPlan(BakedPlanUse.REQUIRED)));
            assertTrue(e.getMessage().contains("cannot serve it: the model is not the one the plan was made from ("
                    + Files.size(MODEL) + " bytes of SHA-256 "), e.getMessage());
            assertTrue(e.getMessage().endsWith("...): it was edited or rebuilt since"), e.getMessage());
            model.newSession(TFLITE).close();
            assertEquals(1, RecordedLogs.of(LOGGER).size());
        }
    }

    @Test
    void aCorruptEntryIsNamedAndTheModelStillServes() throws IOException {
        byte[] corrupt = MetadataWriter.put(Files.readAllBytes(MODEL), BakedPlan.NAME, "TAPL?".getBytes(), false);
        try (TfLiteModel model = TfLiteModel.load(corrupt)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> model.newSession(TFLITE.withBakedPlan(BakedPlanUse.REQUIRED)));
            assertTrue(e.getMessage().endsWith("cannot serve it: it cannot be read: metadata "
                    + "'tflite_arena.plan' ends early (5 bytes): truncated"), e.getMessage());
        }
        assertNativeOutputs(corrupt, TFLITE, rwBytes(Planners.byName("tflite", Duration.ZERO)
                .plan(bake(MODEL, TFLITE, "tflite").graph())));
        assertEquals(1, RecordedLogs.of(LOGGER).size());
    }

    /** The baked model with its plan's primary subgraph edited; the fingerprint stays the model's. */
    private static byte[] tampered(PlanBaking.Baked baked, UnaryOperator<List<Placement>> edit) {
        Plan plan = baked.plan().plan();
        SubgraphPlan primary = plan.subgraphs().get(0);
        List<SubgraphPlan> subgraphs = new ArrayList<>(plan.subgraphs());
        subgraphs.set(0, new SubgraphPlan(0, primary.arenaBytes(), primary.persistentBytes(),
                edit.apply(new ArrayList<>(primary.placements())), primary.provenOptimal()));
        BakedPlan edited = new BakedPlan(baked.plan().fingerprint(), new Plan(plan.planner(), subgraphs));
        return MetadataWriter.put(baked.model(), BakedPlan.NAME, edited.encode(), true);
    }

    private static Placement largestRw(List<Placement> placements) {
        return placements.stream().filter(p -> p.arena() == Arena.RW && p.aliasOf() < 0)
                .max(Comparator.comparingLong(Placement::bytes)).orElseThrow();
    }

    private static List<Placement> replaced(List<Placement> placements, Placement next) {
        placements.replaceAll(p -> p.tensor() == next.tensor() && p.arena() == next.arena() ? next : p);
        return placements;
    }

    @Test
    void aTamperedPlanIsRefusedByTheValidatorNamingTheTensor() throws IOException {
        PlanBaking.Baked baked = bake(MODEL, TFLITE, "tflite");
        String name = baked.graph().subgraphs().get(0).tensor(largestRw(baked.plan().plan().subgraphs().get(0)
                .placements()).tensor()).name();
        byte[] tooSmall = tampered(baked, ps -> {
            Placement p = largestRw(ps);
            return replaced(ps, new Placement(p.tensor(), p.arena(), p.offset(), p.bytes() - 64, p.first(), p.last(), -1));
        });
        byte[] outOfBounds = tampered(baked, ps -> {
            Placement p = largestRw(ps);
            long end = baked.plan().plan().subgraphs().get(0).arenaBytes();
            return replaced(ps, new Placement(p.tensor(), p.arena(), end, p.bytes(), p.first(), p.last(), -1));
        });
        byte[] overlapping = tampered(baked, ps -> {
            Placement p = largestRw(ps);
            Placement live = ps.stream().filter(q -> q.arena() == Arena.RW && q.tensor() != p.tensor() && q.hasMemory()
                    && q.aliasOf() < 0 && q.first() <= p.last() && p.first() <= q.last()
                    && q.offset() + p.bytes() <= baked.plan().plan().subgraphs().get(0).arenaBytes())
                    .findFirst().orElseThrow();
            return replaced(ps, new Placement(p.tensor(), p.arena(), live.offset(), p.bytes(), p.first(), p.last(), -1));
        });
        for (byte[] model : List.of(tooSmall, outOfBounds, overlapping)) {
            try (TfLiteModel loaded = TfLiteModel.load(model)) {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> loaded.newSession(TFLITE.withBakedPlan(BakedPlanUse.REQUIRED)));
                assertTrue(e.getMessage().contains("cannot serve it: the validator refused it: "), e.getMessage());
                assertTrue(e.getMessage().contains(name), name + " in " + e.getMessage());
            }
        }
        assertNativeOutputs(overlapping, TFLITE, rwBytes(Planners.byName("tflite", Duration.ZERO).plan(baked.graph())));
        assertTrue(RecordedLogs.of(LOGGER).get(0).message().contains("the validator refused it"));
    }

    @Test
    void aPoolSharingConstantsRunsOnTheBakedPlanFittedToWhatItShares() throws Exception {
        Path fd = TestModels.named("face_detection_short_range.tflite");
        PlanBaking.Baked baked = bake(fd, TFLITE, "best-of");
        try (TfLiteModel reference = TfLiteModel.load(fd);
             Session expected = reference.newSession(SessionOptions.DEFAULT);
             TfLiteModel model = TfLiteModel.load(baked.model());
             SessionPool pool = model.newPool(TFLITE.withBakedPlan(BakedPlanUse.REQUIRED), 2, Duration.ofSeconds(30));
             Session sharing = model.newSession(TFLITE.withSharing(true).withBakedPlan(BakedPlanUse.REQUIRED))) {
            assertTrue(sharing.sharedBytes() > 0, "the model's dequantized weights are shared");
            assertEquals(rwBytes(baked.plan().plan()), sharing.arenaBytes());
            for (long seed = 1; seed <= 3; seed++) {
                float[] values = SessionTest.randomInput(expected.inputs().get(0), seed);
                Outputs a = expected.run((Object) values);
                Outputs b = pool.run((Object) values);
                Outputs c = sharing.run((Object) values);
                for (TensorInfo output : expected.outputs()) {
                    assertArrayEquals(a.floats(output.index()), b.floats(output.index()), output.toString());
                    assertArrayEquals(a.floats(output.index()), c.floats(output.index()), output.toString());
                }
            }
        }
        assertEquals(List.of(), RecordedLogs.of(LOGGER));
    }

    @Test
    void theBakedModelIsTheModelWithOneMoreMetadataEntry() throws IOException {
        PlanBaking.Baked baked = bake(MODEL, TFLITE, "tflite");
        byte[] model = Files.readAllBytes(MODEL);
        assertTrue(baked.plan().fingerprint().madeFrom(ByteBuffer.wrap(baked.model())));
        assertEquals(TfliteFile.read(model, "a").metadata().size() + 1,
                TfliteFile.read(baked.model(), "b").metadata().size());
        IllegalArgumentException again = assertThrows(IllegalArgumentException.class, () -> PlanBaking.forTflite(
                baked.model(), "baked", TFLITE, Planners.byName("tflite", Duration.ZERO), false));
        assertTrue(again.getMessage().contains("tflite_arena.plan"), again.getMessage());
    }
}
