package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteOperator;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfilingTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    @Test
    void aProfiledRunTimesEveryNodeWithinItsWallTime() throws IOException {
        List<TfliteOperator> operators = TfliteFile.read(MODEL).subgraph(0).operators();
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            session.enableProfiling();
            assertEquals(List.of(), session.lastRunProfile().nodes(), "no run yet");
            float[] input = SessionTest.randomInput(session.inputs().get(0), 3);
            for (int run = 0; run < 3; run++) {
                long start = System.nanoTime();
                session.run((Object) input);
                long wall = System.nanoTime() - start;
                RunProfile profile = session.lastRunProfile();
                assertEquals(IntStream.range(0, operators.size()).boxed().toList(),
                        profile.nodes().stream().map(RunProfile.Node::node).toList(), "the plan's nodes, once each");
                for (RunProfile.Node node : profile.nodes()) {
                    assertEquals(0, node.subgraph());
                    assertEquals(operators.get(node.node()).op(), node.op(), "node " + node.node());
                    assertTrue(node.nanos() > 0, node.toString());
                }
                assertTrue(profile.nanos(0) <= wall, profile.nanos(0) + " ns in ops, " + wall + " ns of run");
                assertEquals(0, profile.dropped());
            }

            session.resizeInput(0, session.inputs().get(0).shape());
            session.run((Object) input);
            assertEquals(operators.size(), session.lastRunProfile().nodes().size(), "a new interpreter is profiled too");

            session.disableProfiling();
            session.run((Object) input);
            var off = assertThrows(IllegalStateException.class, session::lastRunProfile);
            assertTrue(off.getMessage().contains("enableProfiling()"), off.getMessage());
        }
    }

    @Test
    void aSignatureRunIsProfiledInItsSubgraph() {
        try (TfLiteModel model = TfLiteModel.load(SampleModels.addAndMultiplySignatures());
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            session.enableProfiling();
            session.runSignature("multiply", Map.of("a", new float[]{1, 2, 3, 4}, "b", new float[]{2, 2, 2, 2}));
            List<RunProfile.Node> nodes = session.lastRunProfile().nodes();
            assertEquals(List.of("MUL"), nodes.stream().map(RunProfile.Node::op).toList());
            assertEquals(1, nodes.get(0).subgraph(), nodes.toString());
        }
    }

    @Test
    void aJavaPlansHandoverIsANodeOfItsOwn() {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session session = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite"))) {
            session.enableProfiling();
            session.run((Object) SessionTest.randomInput(session.inputs().get(0), 3));
            List<RunProfile.Node> nodes = session.lastRunProfile().nodes();
            assertEquals("TfLiteArenaHandover", nodes.get(nodes.size() - 1).op());
        }
    }

    @Test
    void withXnnpackTheNodesTfliteReportsAreTimed() {
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session session = model.newSession(SessionOptions.DEFAULT.withXnnpack(true))) {
            session.enableProfiling();
            long start = System.nanoTime();
            session.run((Object) SessionTest.randomInput(session.inputs().get(0), 3));
            long wall = System.nanoTime() - start;
            RunProfile profile = session.lastRunProfile();
            assertTrue(profile.nodes().stream().allMatch(n -> n.nanos() > 0), profile.toString());
            assertTrue(profile.nanos(0) <= wall, profile.toString());
        }
    }
}
