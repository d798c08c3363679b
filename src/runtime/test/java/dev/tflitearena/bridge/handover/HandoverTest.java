package dev.tflitearena.bridge.handover;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.handover.ArenaTemplate;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.InvalidPlanException;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.ValidatedPlan;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Java plan drives the native interpreter: outputs bit-identical, the native arenas left empty. */
class HandoverTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    static Stream<Arguments> runnableModelsWithAndWithoutXnnpack() {
        return TestModels.runnable().stream().flatMap(model -> Stream.of(
                Arguments.of(model, InterpreterSettings.DEFAULT),
                Arguments.of(model, InterpreterSettings.DEFAULT.withXnnpack(true))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runnableModelsWithAndWithoutXnnpack")
    void poisonedJavaArenaGivesTheNativeOutputsAndLeavesNoNativeArena(Path model, InterpreterSettings settings) {
        try (NativeModel loaded = NativeModel.load(model)) {
            DifferentialRun.Result r = DifferentialRun.run(loaded, settings, new TflitePlanner(), 2, 7, true);
            assertTrue(r.outputsIdentical(), r::firstDifference);
            assertEquals(NativeRelease.loaded().arenaBufferPadding(), r.candidate().arenaBytes(), "native arena bytes left");
            assertEquals(NativeRelease.loaded().arenaBufferPadding(), r.candidate().persistentBytes(),
                    "native persistent bytes left");
            assertTrue(r.handover().tensorsHandedOver() > 0);
            long padding = NativeRelease.loaded().arenaBufferPadding();
            assertEquals(r.reference().arenaBytes() - padding, r.handover().javaArenaBytes(), "rw arena of the plan");
            assertEquals(r.reference().persistentBytes() - padding, r.handover().javaPersistentBytes(),
                    "persistent arena of the plan");
            assertTrue(r.handover().javaBufferTotalBytes()
                    >= r.handover().javaArenaBytes() + r.handover().javaPersistentBytes());
        }
    }

    static Stream<Arguments> everyPlannerOnRealModels() {
        return Planners.all(java.time.Duration.ofSeconds(5)).stream().flatMap(planner -> Stream.of(
                        "face_detection_short_range.tflite", "hand_landmark_full.tflite", "pose_landmark_lite.tflite")
                .map(model -> Arguments.of(planner, TestModels.named(model))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPlannerOnRealModels")
    void everyPlannersPlanDrivesTheRuntimeWithNativeOutputs(Planner planner, Path model) {
        try (NativeModel loaded = NativeModel.load(model)) {
            DifferentialRun.Result r = DifferentialRun.run(loaded, InterpreterSettings.DEFAULT, planner, 2, 3, true);
            assertTrue(r.outputsIdentical(), r::firstDifference);
            assertEquals(NativeRelease.loaded().arenaBufferPadding(), r.candidate().arenaBytes());
            assertTrue(r.handover().javaArenaBytes() <= r.reference().arenaBytes()
                    || !planner.name().equals("best-of"), "best-of never needs more than native");
        }
    }

    /** Moves tensor {@code moved} onto the bytes of {@code onto}, whose lifetime overlaps it. */
    private static Plan overlapping(Plan plan, int moved, int onto) {
        SubgraphPlan sp = plan.subgraphs().get(0);
        long target = sp.placements().stream().filter(p -> p.tensor() == onto).findFirst().orElseThrow().offset();
        List<Placement> placements = new ArrayList<>(sp.placements());
        placements.replaceAll(p -> p.tensor() != moved ? p
                : new Placement(p.tensor(), p.arena(), target, p.bytes(), p.first(), p.last(), p.aliasOf()));
        return new Plan("broken", List.of(new SubgraphPlan(0, sp.arenaBytes(), sp.persistentBytes(), placements)));
    }

    @Test
    void aBrokenPlanIsRefusedBeforeTfliteSeesItAndWouldChangeTheOutputs() {
        try (NativeModel loaded = NativeModel.load(MODEL);
             NativeInterpreter reference = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
             NativeInterpreter candidate = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            reference.allocateTensors();
            Graph graph = reference.snapshot();
            // The graph input and the first CONV_2D's output are live together at node 2.
            int input = graph.subgraphs().get(0).inputs()[0];
            int convOutput = graph.subgraphs().get(0).nodes().get(2).outputs()[0];
            Plan broken = overlapping(new TflitePlanner().plan(graph), convOutput, input);

            InvalidPlanException refusal = assertThrows(InvalidPlanException.class,
                    () -> JavaArena.allocate(graph, broken));
            assertTrue(refusal.getMessage().contains("tensors " + input), refusal.getMessage());
            assertTrue(refusal.getMessage().contains("share memory while both live"), refusal.getMessage());

            // Had it been applied, the run would show it: the conv output overwrites the input.
            try (JavaArena arena = JavaArena.allocateUnvalidated(graph, broken)) {
                candidate.allocateTensors(arena);
                byte[] data = SeededInputs.of(reference.input(0), 1);
                arena.poisonActivations(JavaArena.POISON);
                reference.writeInput(0, data);
                candidate.writeInput(0, data);
                reference.invoke();
                candidate.invoke();
                assertFalse(java.util.Arrays.equals(reference.readOutput(0), candidate.readOutput(0)));
            }
        }
    }

    /** The graph of a natively planned interpreter of the model, and its output on {@link #runOnce}'s input. */
    private record Reference(Graph graph, byte[] output) {
        static Reference of(NativeModel loaded) {
            try (NativeInterpreter reference = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
                reference.allocateTensors();
                return new Reference(reference.snapshot(), runOnce(reference));
            }
        }
    }

    private static byte[] runOnce(NativeInterpreter interpreter) {
        interpreter.writeInput(0, SeededInputs.of(interpreter.input(0), 3));
        interpreter.invoke();
        return interpreter.readOutput(0);
    }

    @Test
    void theArenaOutlivesItsInterpreterWhicheverClosesFirst() {
        try (NativeModel loaded = NativeModel.load(MODEL)) {
            Reference reference = Reference.of(loaded);
            Graph graph = reference.graph();
            Plan plan = new TflitePlanner().plan(graph);

            // Arena closed first: the interpreter keeps using it until it closes itself.
            JavaArena arena = JavaArena.allocate(graph, plan);
            NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
            interpreter.allocateTensors(arena);
            arena.close();
            assertThrows(IllegalStateException.class, () -> arena.poisonActivations((byte) 0));
            assertArrayEquals(reference.output(), runOnce(interpreter));
            interpreter.close();
            assertThrows(IllegalStateException.class, () -> runOnce(interpreter));

            // Interpreter closed first: the arena stays usable by its owner, then closes.
            JavaArena second = JavaArena.allocate(graph, plan);
            try (NativeInterpreter other = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
                other.allocateTensors(second);
                assertArrayEquals(reference.output(), runOnce(other));
            }
            second.poisonActivations((byte) 1);
            second.close();
            assertThrows(IllegalStateException.class, () -> second.poisonActivations((byte) 0));
        }
    }

    @Test
    void aTemplateLaysOneValidatedPlanOutInAnArenaPerInterpreter() {
        try (NativeModel loaded = NativeModel.load(MODEL)) {
            Reference reference = Reference.of(loaded);
            Graph graph = reference.graph();
            byte[] expected = reference.output();
            ArenaTemplate template = ArenaTemplate.of(ValidatedPlan.of(graph, new TflitePlanner().plan(graph),
                    JavaArena.ALIGNMENT));
            try (JavaArena first = template.allocate(); JavaArena second = template.allocate();
                 NativeInterpreter a = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
                 NativeInterpreter b = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
                a.allocateTensors(first);
                b.allocateTensors(second);
                assertEquals(first.size(), second.size());
                assertArrayEquals(expected, runOnce(a));
                // a's output lies in its own arena: poisoning b's leaves it whole, and b runs on after.
                second.poisonActivations((byte) 0x7f);
                assertArrayEquals(expected, a.readOutput(0));
                assertArrayEquals(expected, runOnce(b));
            }

            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ArenaTemplate.of(
                    ValidatedPlan.of(graph, new TflitePlanner().plan(graph), 16)));
            assertTrue(refused.getMessage().contains("validated at an alignment of 16 bytes"), refused.getMessage());
        }
    }

    @Test
    void aPlanIsHandedOverOnlyAtTheFirstAllocation() {
        try (NativeModel loaded = NativeModel.load(MODEL);
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            Graph graph = interpreter.snapshot();
            try (JavaArena arena = JavaArena.allocate(graph, new TflitePlanner().plan(graph))) {
                assertThrows(IllegalStateException.class, () -> interpreter.allocateTensors(arena));
            }
        }
    }

    @Test
    void aPlanForAnotherModelIsRefused() {
        Graph otherGraph;
        try (NativeModel other = NativeModel.load(TestModels.named("hand_landmark_lite.tflite"));
             NativeInterpreter interpreter = NativeInterpreter.build(other, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            otherGraph = interpreter.snapshot();
        }
        try (NativeModel loaded = NativeModel.load(MODEL);
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
             JavaArena arena = JavaArena.allocate(otherGraph, new TflitePlanner().plan(otherGraph))) {
            NativeException e = assertThrows(NativeException.class, () -> interpreter.allocateTensors(arena));
            assertTrue(e.getMessage().contains("made for another model"), e.getMessage());
        }
    }

    @Test
    void aTensorLargerThanItsPlannedMemoryIsRefusedNamingBoth() {
        try (NativeModel loaded = NativeModel.load(MODEL);
             NativeInterpreter reference = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT);
             NativeInterpreter candidate = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            reference.allocateTensors();
            Graph graph = reference.snapshot();
            Plan plan = new TflitePlanner().plan(graph);
            SubgraphPlan main = plan.subgraphs().get(0);
            List<Placement> placements = new ArrayList<>(main.placements());
            int shrunk = 0;
            while (!placements.get(shrunk).hasMemory()) {
                shrunk++;
            }
            Placement p = placements.get(shrunk);
            placements.set(shrunk, new Placement(p.tensor(), p.arena(), p.offset(), p.bytes() - 1, p.first(), p.last(),
                    p.aliasOf()));
            Plan small = new Plan(plan.planner(), List.of(new SubgraphPlan(main.subgraph(), main.arenaBytes(),
                    main.persistentBytes(), placements, main.provenOptimal())));
            // The validator checks each size against the graph; the handover checks it again against the
            // interpreter it prepares, for a plan made for other shapes.
            InvalidPlanException e = assertThrows(InvalidPlanException.class, () -> JavaArena.allocate(graph, small));
            assertTrue(e.getMessage().contains("tensor " + p.tensor()) && e.getMessage().endsWith("the plan gives it "
                    + (p.bytes() - 1) + " bytes, the graph " + p.bytes()), e.getMessage());
        }
    }
}
