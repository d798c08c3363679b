package dev.tflitearena.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.memory.InputShapes;
import dev.tflitearena.memory.JvmMalloc;
import dev.tflitearena.memory.ResizeCycle;
import dev.tflitearena.memory.ResizeProbe;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** The {@code memory --resize-cycle} result, as text and as JSON. */
public final class ResizeReport {
    private final Path model;
    private final boolean xnnpack;
    private final ResizeCycle.Result result;

    public ResizeReport(Path model, boolean xnnpack, ResizeCycle.Result result) {
        this.model = model;
        this.xnnpack = xnnpack;
        this.result = result;
    }

    public ObjectNode toJson() {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("xnnpack", xnnpack);
        root.put("input", result.input());
        ArrayNode shapes = root.putArray("shapes");
        result.shapes().forEach(shape -> shapes.add(InputShapes.format(shape)));
        ArrayNode refused = root.putArray("refused");
        for (ResizeProbe.Refusal r : result.refused()) {
            ObjectNode node = refused.addObject();
            node.put("shape", InputShapes.format(r.shape()));
            node.put("planner", r.planner());
            node.put("step", r.step());
            node.put("signal", r.signal());
            node.put("reason", r.reason());
        }
        ArrayNode runs = root.putArray("runs");
        for (ResizeCycle.Measured m : result.runs()) {
            ObjectNode node = runs.addObject();
            node.put("planner", m.options().planner());
            node.put("release_inputs", m.options().releaseInputs());
            runJson(node.putObject("fixed"), m.fixed());
            runJson(node.putObject("resized"), m.resized());
        }
        return root;
    }

    private static void runJson(ObjectNode node, ResizeCycle.Run run) {
        node.put("peak_source", run.peakSource());
        node.put("start_rss_bytes", run.startBytes());
        node.put("peak_rss_bytes", run.peakBytes());
        node.put("peak_rss_rise_bytes", run.peakRiseBytes());
        node.put("heap_in_use_bytes", run.heapAtEnd().inUse());
        node.put("heap_mapped_bytes", run.heapAtEnd().mapped());
        node.put("heap_outside_jvm_bytes", run.heapAtEnd().outsideJvm());
        ArrayNode steps = node.putArray("steps");
        for (ResizeCycle.Step s : run.steps()) {
            ObjectNode step = steps.addObject();
            step.put("step", s.step());
            Json.putInts(step, "shape", s.shape());
            step.put("arena_bytes", s.arenaBytes());
            step.put("peak_rss_bytes", s.peakBytes());
        }
    }

    public void printText(PrintWriter out) {
        out.printf("%s, input '%s', cycling through %s%n", model, result.input(),
                result.shapes().stream().map(InputShapes::format).collect(Collectors.joining(" -> ")));
        for (ResizeProbe.Refusal r : result.refused()) {
            out.printf("  %s%n", r.summary());
        }
        out.println();
        for (ResizeCycle.Measured m : result.runs()) {
            out.printf("planner %s, %s; peak RSS from %s, reset before each run%n", m.options().planner(),
                    xnnpack ? "XNNPACK" : "no XNNPACK", m.fixed().peakSource());
            TextTable table = new TextTable("run", "step", "shape", "rw arena", "peak RSS").leftAlign(0).leftAlign(2);
            addSteps(table, "fixed", m.fixed());
            addSteps(table, "resized", m.resized());
            table.print(out);
            out.printf("peak RSS above the run's start: fixed %d, resized %d (%+d); native heap at the end%s: "
                            + "fixed %d, resized %d (%+d)%n%n", m.fixed().peakRiseBytes(), m.resized().peakRiseBytes(),
                    m.resized().peakRiseBytes() - m.fixed().peakRiseBytes(),
                    m.fixed().heapAtEnd().jvm() == JvmMalloc.UNKNOWN ? " (uordblks + hblkhd)" : " (less the JVM's own)",
                    m.fixed().heapAtEnd().outsideJvm(), m.resized().heapAtEnd().outsideJvm(),
                    m.resized().heapAtEnd().outsideJvm() - m.fixed().heapAtEnd().outsideJvm());
        }
    }

    private static void addSteps(TextTable table, String name, ResizeCycle.Run run) {
        for (ResizeCycle.Step s : run.steps()) {
            table.add(name, s.step(), InputShapes.format(s.shape()), s.arenaBytes(), s.peakBytes());
        }
    }
}
