package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.PlanFileOption;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.options.ReleaseInputsOption;
import dev.tflitearena.cli.options.XnnpackOption;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.ResizeReport;
import dev.tflitearena.cli.output.SessionsReport;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.memory.InputShapes;
import dev.tflitearena.memory.JvmMalloc;
import dev.tflitearena.memory.MemoryProfile;
import dev.tflitearena.memory.ResizeCycle;
import dev.tflitearena.memory.SessionScaling;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.order.Order;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.session.BakedPlanUse;
import dev.tflitearena.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "memory", mixinStandardHelpOptions = true,
        description = "The process's RSS (VmRSS) and native heap in use (glibc mallinfo2: uordblks, and hblkhd for "
                + "blocks malloc maps on their own) before loading the model, after loading, after allocating, after "
                + "1 invoke and after " + MemoryProfile.INVOKES + ", with the native plan and then with a Java plan; "
                + "flags native heap growth after the first invoke. The command runs in a JVM with Native Memory "
                + "Tracking, so that the JVM's own mallocs, which come and go by a megabyte, are taken out. With "
                + "--resize-cycle, re-planning as the first input changes shape instead; with --sessions, what each "
                + "extra session of the model costs. Linux with glibc only.")
final class MemoryCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The Java planner measured after the native one, or 'native' for the native one alone "
                    + "(default: ${DEFAULT-VALUE}).")
    String planner;

    @Mixin
    PlanFileOption planFile;

    @Mixin
    XnnpackOption xnnpack;

    @Option(names = "--resize-cycle", paramLabel = "N", description = "Instead of the stages: per plan, a "
            + "session that resizes its first input N times, cycling through the shapes the model accepts and "
            + "back to its own, invoking after each resize, against a session that invokes as often at the "
            + "model's own shape. Per step: the shape, the rw arena re-planned for it (the Java plan's size, or "
            + "what TFLite reports of its own) and the peak RSS (VmHWM, reset before each run); the native heap "
            + "at the end of each run. Each resize builds a new interpreter. Each shape is tried first in a child "
            + "JVM, where a crash of TFLite is contained. Fails, with TFLite's reasons or the crashes, if the model "
            + "accepts no shape but its own.")
    Integer resizeCycle;

    @Option(names = "--shapes", split = ",", paramLabel = "SHAPE", description = "With --resize-cycle, the shapes "
            + "to try, such as 1x64x64x3,1x256x256x3; those the model refuses are listed with the step that failed "
            + "and TFLite's reason, or the signal it crashed with, and left out (default: the batch doubled and "
            + "quadrupled, and for a rank-4 input the height and width halved and doubled).")
    List<String> shapes;

    @Option(names = "--sessions", arity = "0..1", split = ",", fallbackValue = "1,2,4,8", paramLabel = "N",
            description = "Instead of the stages: per plan, for each count N (default 1,2,4,8), the model loaded and N "
                    + "sessions made, allocated and invoked once; the native heap and RSS against before loading; the "
                    + "marginal native heap per extra session (the slope from the smallest N to the largest), split "
                    + "into rw arena, the persistent arena a session owns, XNNPACK (with --xnnpack: the rest beyond "
                    + "what the same sessions without XNNPACK need, measured too) and the rest; and the goal: a "
                    + "session's working memory (its rw arena, plus XNNPACK's share when it runs) plus "
                    + "5%% of one session's native heap. The sessions share what derives from the model's constants "
                    + "unless --no-share.")
    List<Integer> sessions;

    @Option(names = "--no-share", description = "With --sessions: sessions that share nothing, as before issue 16.")
    boolean noShare;

    @Option(names = "--threads", paramLabel = "T", description = "Threads of each interpreter (default: TFLite's "
            + "own); CONV_2D keeps a transposed copy of its filter unless T is 1.")
    Integer threads;

    @Mixin
    ReleaseInputsOption releaseInputs;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    @Override
    public Integer call() throws IOException {
        releaseInputs.requireJavaPlanner(planner);
        if (planFile.given()) {
            if (resizeCycle != null) {
                throw new IllegalArgumentException("--plan fits the model's own shapes; --resize-cycle re-plans for "
                        + "others");
            }
            // Sessions are made by planner name: the file's plan joins the planners under its file name.
            Planner plan = planFile.read(model, releaseInputs.on, Order.MODEL, xnnpack.on);
            Planners.register(plan);
            planner = plan.name();
        }
        // Each run plans as it says: a baked plan is measured through --plan MODEL.tflite.
        SessionOptions nativePlan = SessionOptions.DEFAULT.withXnnpack(xnnpack.on).withBakedPlan(BakedPlanUse.IGNORED);
        if (threads != null) {
            nativePlan = nativePlan.withThreads(threads);
        }
        Integer delegateThreads = xnnpack.threads();
        if (delegateThreads != null) {
            nativePlan = nativePlan.withXnnpackThreads(delegateThreads);
        }
        List<SessionOptions> runs = SessionOptions.NATIVE.equals(planner) ? List.of(nativePlan)
                : List.of(nativePlan, nativePlan.withPlanner(planner).withReleaseInputs(releaseInputs.on));
        if (noShare && sessions == null) {
            throw new IllegalArgumentException("--no-share is for --sessions");
        }
        if (sessions != null) {
            if (resizeCycle != null) {
                throw new IllegalArgumentException("--sessions and --resize-cycle are two measures: give one");
            }
            return sessions(runs.stream().map(r -> r.withSharing(!noShare)).toList());
        }
        if (resizeCycle != null) {
            return resizeCycle(runs);
        }
        if (shapes != null) {
            throw new IllegalArgumentException("--shapes is for --resize-cycle");
        }
        List<MemoryProfile.Result> results;
        try (ProgressDisplay display = progress.open()) {
            results = MemoryProfile.measure(model, runs, display);
        }
        output.print(() -> toJson(results), out -> results.forEach(r -> printText(out, r)));
        return 0;
    }

    private int sessions(List<SessionOptions> runs) {
        List<SessionScaling.Report> reports = new ArrayList<>();
        try (ProgressDisplay display = progress.open()) {
            for (SessionOptions run : runs) {
                reports.add(SessionScaling.measure(model, run, sessions, display));
            }
        }
        SessionsReport report = new SessionsReport(model, reports);
        output.print(report::toJson, report::printText);
        return 0;
    }

    private int resizeCycle(List<SessionOptions> runs) {
        List<int[]> candidates = shapes == null ? null : shapes.stream().map(InputShapes::parse).toList();
        ResizeCycle.Result result;
        try (ProgressDisplay display = progress.open()) {
            result = ResizeCycle.measure(model, runs, candidates, resizeCycle, display);
        }
        ResizeReport report = new ResizeReport(model, xnnpack.on, result);
        output.print(report::toJson, report::printText);
        return 0;
    }

    private ObjectNode toJson(List<MemoryProfile.Result> results) {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("xnnpack", xnnpack.on);
        root.put("release_inputs", releaseInputs.on);
        ArrayNode runs = root.putArray("runs");
        for (MemoryProfile.Result r : results) {
            ObjectNode run = runs.addObject();
            run.put("planner", r.options().planner());
            run.put("release_inputs", r.options().releaseInputs());
            ArrayNode samples = run.putArray("samples");
            for (MemoryProfile.Sample s : r.samples()) {
                ObjectNode sample = samples.addObject();
                sample.put("stage", s.stage());
                sample.put("rss_bytes", s.residentBytes());
                sample.put("heap_in_use_bytes", s.heap().inUse());
                sample.put("heap_mapped_bytes", s.heap().mapped());
                if (s.heap().jvm() == JvmMalloc.UNKNOWN) {
                    sample.putNull("jvm_malloc_bytes");
                } else {
                    sample.put("jvm_malloc_bytes", s.heap().jvm());
                }
                sample.put("heap_outside_jvm_bytes", s.heap().outsideJvm());
            }
            run.put("rss_growth_after_warm_up", r.residentGrowthAfterWarmUp());
            run.put("heap_growth_after_warm_up", r.heapGrowthAfterWarmUp());
            run.put("growth_tolerance_bytes", r.growthTolerance());
            run.put("grew", r.grew());
        }
        return root;
    }

    private void printText(PrintWriter out, MemoryProfile.Result r) {
        out.printf("%s, planner %s, %s%s%n", model, r.options().planner(),
                r.options().xnnpack() ? "XNNPACK" : "no XNNPACK",
                r.options().releaseInputs() ? ", " + PlanReport.RELEASE_INPUTS : "");
        TextTable table = new TextTable("stage", "VmRSS", "+RSS", "uordblks", "hblkhd", "JVM's", "+heap")
                .leftAlign(0);
        MemoryProfile.Sample first = r.first();
        for (MemoryProfile.Sample s : r.samples()) {
            table.add(s.stage(), s.residentBytes(), s.residentBytes() - first.residentBytes(), s.heap().inUse(),
                    s.heap().mapped(), TextTable.orDash(s.heap().jvm()), s.heap().outsideJvm() - first.heap().outsideJvm());
        }
        table.print(out);
        out.printf("+heap: uordblks + hblkhd%s, since before loading%n", r.jvmKnown()
                ? " less the JVM's own mallocs (Native Memory Tracking)"
                : " (the JVM's own mallocs unknown: start the JVM with " + JvmMalloc.OPTION + ")");
        out.printf("after warm-up: RSS %+d, heap %+d bytes: %s%n%n", r.residentGrowthAfterWarmUp(),
                r.heapGrowthAfterWarmUp(), r.grew() ? "native heap GROWTH (more than " + r.growthTolerance()
                        + " bytes)" : "no native heap growth beyond " + r.growthTolerance() + " bytes");
    }
}
