package dev.tflitearena.plan.render;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.render.PlanPicture.Panel;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Writes example reports to target/render-examples/ for a person to look at (tests/report-screenshot.sh
 * turns one into a PNG): the sample chain graph, and MediaPipe's lite pose landmark model as the native
 * interpreter prepares it, a real plan of hundreds of tensors.
 */
class ExampleReportsTest {
    private static final Path OUT = Path.of("target", "render-examples");

    @Test
    void chainGraph() throws IOException {
        write("chain", "Sample chain graph", SampleGraphs.chain(), "not loaded (a graph built in code)", "none");
    }

    @Test
    void poseLandmarkLite() throws IOException {
        try (NativeModel loaded = NativeModel.load(TestModels.named("pose_landmark_lite.tflite"));
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            Graph graph = interpreter.snapshot();
            PlanPicture picture = write("pose_landmark_lite", "pose_landmark_lite.tflite", graph,
                    NativeRelease.version(), InterpreterSettings.DEFAULT.resolverName());
            long drawn = graph.subgraphs().get(0).tensors().stream()
                    .filter(t -> t.allocation() == Allocation.ARENA_RW && t.bytes() > 0).count();
            assertEquals(drawn, picture.panels().get(0).boxes().size(), "every rw tensor with memory is drawn");
            assertEquals(LowerBound.of(graph.subgraphs().get(0), graph.options()), picture.panels().get(0).peak()
                    .bytes(), "the tensors listed at the peak make up the lower bound");
        }
    }

    private static PlanPicture write(String name, String title, Graph graph, String tflite, String resolver)
            throws IOException {
        long start = System.nanoTime();
        Plan plan = new TflitePlanner().plan(graph);
        long millis = (System.nanoTime() - start) / 1_000_000;
        PlanPicture planned = PlanPicture.of(graph, plan);
        PlanPicture picture = new PlanPicture(title + ": " + planned.title(), planned.panels());
        Panel panel = picture.panels().get(0);
        String svg = SvgRenderer.render(picture);
        HtmlReport.Row row = new HtmlReport.Row(plan.planner(), panel.arenaBytes(), panel.lowerBound(), panel.gap(),
                plan.subgraphs().get(0).provenOptimal(), millis, "TFLite's ArenaPlanner, offsets equal to native");
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve(name + ".svg"), svg);
        Files.writeString(OUT.resolve(name + ".txt"), AsciiRenderer.render(picture, 120));
        HtmlReport.Provenance provenance = new HtmlReport.Provenance(tflite + ", planned under "
                + graph.options().release().version() + "'s rules", resolver, LocalDate.now().toString());
        Files.writeString(OUT.resolve(name + ".html"), HtmlReport.render(title, provenance,
                List.of(new HtmlReport.Section("", List.of(row), List.of(picture)))));
        return picture;
    }
}
