package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.dump.IntermediateDump;
import dev.tflitearena.bridge.handover.Handover;
import dev.tflitearena.cli.options.BakedPlanChoice;
import dev.tflitearena.cli.options.GraphOptions;
import dev.tflitearena.cli.options.GraphSource;
import dev.tflitearena.cli.options.OrderedGraph;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.options.PlanFileOption;
import dev.tflitearena.cli.options.ProgressOptions;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.PlanReport;
import dev.tflitearena.cli.output.ProgressDisplay;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.plan.LowerBound;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.PlannerTable;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.progress.ProgressCounter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the model on a Java plan, handed to the native interpreter through custom allocations, "
                + "beside a native-planned interpreter; feeds both the same seeded inputs and compares every output "
                + "byte for byte. Exit status 0 only when all outputs are identical.")
final class RunCommand implements Callable<Integer> {
    private static final int SHOWN_WITHOUT_FILE = 5;

    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--planner", defaultValue = "tflite", paramLabel = "NAME",
            description = "The Java planner, or 'native' for a second native-planned interpreter "
                    + "(default: ${DEFAULT-VALUE}).")
    String planner;

    @Option(names = "--invokes", defaultValue = "3", paramLabel = "N", description = "Invokes (default: ${DEFAULT-VALUE}).")
    int invokes;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the input data; invoke i uses S + i (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--poison", description = "Fill the Java arena's rw regions with 0xFF bytes before every invoke.")
    boolean poison;

    @Option(names = "--dump-intermediates", paramLabel = "DIR", description = {
            "After the run, replay its invokes on a native-planned interpreter built with preserve_all_tensors "
                    + "and write every intermediate tensor of every subgraph, as the last invoke left it, to DIR: "
                    + "one NumPy .npy file per tensor (sgS_tNNNNN_NAME.npy) and an index.json manifest (name, "
                    + "type, shape, bytes, quantization, producing node, graph input/output position).",
            "Dumped: graph inputs, graph outputs, variables and node outputs (of a loop body, its last "
                    + "iteration). Not dumped: constants, and kernel temporaries (scratch). Listed without a file, "
                    + "with the reason: types NumPy lacks (STRING, RESOURCE, BFLOAT16...), tensors without memory, "
                    + "tensors whose memory another op lends and rewrites later (a WHILE body's inputs), "
                    + "and tensors inside a delegated partition, which a delegate computes in its own buffers so "
                    + "that TFLite's copy is garbage. With --xnnpack, TFLite 2.20 delegates node by node under "
                    + "preserve_all_tensors, so every node output is XNNPACK's own result and is dumped.",
            "Reports the native arena bytes with and without preserve_all_tensors (two real interpreters) and "
                    + "the bytes written, and checks that the dumped outputs equal the run's byte for byte (exit "
                    + "status 1 if not). DIR is created if missing and must be empty (see --force)."})
    Path dumpDirectory;

    @Option(names = "--force", description = "With --dump-intermediates, dump into a non-empty DIR: an earlier "
            + "dump's files there (index.json, sg*_t*.npy) are deleted first, other files are left alone.")
    boolean force;

    @Mixin
    PlanFileOption planFile;

    @Mixin
    GraphOptions graph;

    @Mixin
    Output output;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        graph.releaseInputs.requireJavaPlanner(planner);
        BakedPlanChoice baked = planFile.given() ? null : BakedPlanChoice.of(model, Planners.byNameOrNative(planner),
                spec.commandLine().getParseResult().hasMatchedOption("--planner"), graph, spec.commandLine().getErr());
        Planner strategy = baked == null ? planFile.read(model, graph.releaseInputs.on, graph.order.value(),
                graph.nativeOptions.xnnpack.on) : baked.planner();
        if (force && dumpDirectory == null) {
            throw new IllegalArgumentException("--force only applies to --dump-intermediates");
        }
        if (dumpDirectory != null) {
            // Before the run, which may take long, rather than after it.
            IntermediateDump.checkDirectory(dumpDirectory, force);
            WritablePath.checkDirectory(dumpDirectory);
        }
        DifferentialRun.Result result;
        IntermediateDump.Result dump;
        try (ProgressDisplay display = progress.open(); NativeModel loaded = NativeModel.load(model)) {
            ProgressCounter steps = new ProgressCounter(display, dumpDirectory == null ? 1 : 2);
            steps.next(invokes + " invokes on both interpreters");
            result = DifferentialRun.run(loaded, graph.nativeOptions.settings(), strategy, graph.order.value(),
                    invokes, seed, poison, graph.releaseInputs.on);
            if (dumpDirectory == null) {
                dump = null;
            } else {
                steps.next("dumping the intermediates to " + dumpDirectory);
                dump = IntermediateDump.write(loaded, result, seed, dumpDirectory, force);
            }
        }
        // An outside plan is measured against the lower bound too: how far it is from the best possible.
        long lowerBound = planFile.given() ? PlannerTable.lowerBound(GraphSource.read(model,
                graph.nativeOptions.settings()).withReleaseInputs(graph.releaseInputs.on)) : -1;
        output.print(() -> {
            ObjectNode root = toJson(result, dump);
            if (baked != null) {
                baked.toJson(root);
            }
            if (lowerBound >= 0) {
                root.put("lower_bound_bytes", lowerBound);
            }
            return root;
        }, out -> {
            printText(out, result);
            if (lowerBound >= 0) {
                long arena = result.handover().javaArenaBytes();
                out.printf("plan %s: rw arena %d bytes, lower bound %d, gap %s%n", planFile.file, arena, lowerBound,
                        PlanReport.percent(LowerBound.gap(arena, lowerBound)));
            }
            if (dump != null) {
                printDump(out, dump);
            }
        });
        return result.outputsIdentical() && (dump == null || dump.outputsMatch()) ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private ObjectNode toJson(DifferentialRun.Result r, IntermediateDump.Result dump) {
        Handover h = r.handover();
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("planner", r.planner());
        root.put("xnnpack", r.settings().xnnpack());
        root.put("resolver", r.settings().resolverName());
        root.put("preserve_all_tensors", r.settings().preserveAllTensors());
        root.put("poison", poison);
        root.put("release_inputs", graph.releaseInputs.on);
        root.put("outputs_identical", r.outputsIdentical());
        if (r.firstDifference() != null) {
            root.put("first_difference", r.firstDifference());
        }
        root.put("invokes", r.invokes());
        root.put("seed", seed);
        root.put("java_arena_bytes", h == null ? 0 : h.javaArenaBytes());
        root.put("java_persistent_bytes", h == null ? 0 : h.javaPersistentBytes());
        root.put("java_buffer_total_bytes", h == null ? 0 : h.javaBufferTotalBytes());
        root.put("tensors_handed_over", h == null ? 0 : h.tensorsHandedOver());
        root.put("native_arena_bytes_left", r.candidate().arenaBytes());
        root.put("native_persistent_bytes_left", r.candidate().persistentBytes());
        root.put("reference_native_arena_bytes", r.reference().arenaBytes());
        root.put("reference_native_persistent_bytes", r.reference().persistentBytes());
        if (r.order() != null) {
            root.set("order", OrderedGraph.orderJson(r.order()));
        }
        if (dump != null) {
            root.set("dump", dump.summary());
        }
        return root;
    }

    private void printText(PrintWriter out, DifferentialRun.Result r) {
        Handover h = r.handover();
        out.printf("%s, planner %s, %s%s%s%n", model, r.planner(), r.settings().resolverName(),
                r.settings().preserveAllTensors() ? ", preserve_all_tensors" : "",
                graph.releaseInputs.on ? ", " + PlanReport.RELEASE_INPUTS : "");
        if (r.order() != null) {
            out.println(r.order().summary() + "; the native-planned interpreter runs the model's order");
        }
        TextTable table = new TextTable("", "native-planned", r.planner() + "-planned").leftAlign(0);
        table.add("Java arena bytes", 0, h == null ? 0 : h.javaArenaBytes());
        table.add("Java persistent bytes", 0, h == null ? 0 : h.javaPersistentBytes());
        table.add("Java buffer, both with padding", 0, h == null ? 0 : h.javaBufferTotalBytes());
        table.add("tensors handed over", 0, h == null ? 0 : h.tensorsHandedOver());
        table.add("native arena bytes", r.reference().arenaBytes(), r.candidate().arenaBytes());
        table.add("native persistent bytes", r.reference().persistentBytes(), r.candidate().persistentBytes());
        table.print(out);
        out.printf("%d invoke%s, seed %d%s: outputs %s%n", r.invokes(), r.invokes() == 1 ? "" : "s", seed,
                poison ? ", Java arena poisoned before each" : "",
                r.outputsIdentical() ? "identical" : "DIFFERENT (" + r.firstDifference() + ")");
    }

    /** What the dump wrote, what preserve_all_tensors cost, and whether the dump can be trusted. */
    private static void printDump(PrintWriter out, IntermediateDump.Result d) {
        out.printf("%nIntermediates in %s: %d tensors, %d .npy files and %s, %d bytes written (%d of tensor data); "
                        + "%d kernel temporaries not dumped%n", d.directory(), d.entries().size(), d.files(),
                IntermediateDump.MANIFEST, d.bytesWritten(), d.dataBytes(), d.temporaries());
        List<IntermediateDump.Entry> without = d.entries().stream().filter(e -> e.file() == null).toList();
        if (!without.isEmpty()) {
            out.printf("%d without a file (see %s):%n", without.size(), IntermediateDump.MANIFEST);
            without.stream().limit(SHOWN_WITHOUT_FILE).forEach(e -> out.printf("  subgraph %d, tensor %d '%s': %s%n",
                    e.subgraph(), e.tensor().index(), e.tensor().name(), e.reason()));
            if (without.size() > SHOWN_WITHOUT_FILE) {
                out.printf("  ... and %d more%n", without.size() - SHOWN_WITHOUT_FILE);
            }
        }
        TextTable table = new TextTable("", "normal", "preserve_all_tensors", "difference").leftAlign(0);
        table.add("native arena bytes", d.plain().arenaBytes(), d.preserving().arenaBytes(),
                d.preserving().arenaBytes() - d.plain().arenaBytes());
        table.add("native persistent bytes", d.plain().persistentBytes(), d.preserving().persistentBytes(),
                d.preserving().persistentBytes() - d.plain().persistentBytes());
        table.print(out);
        out.printf("preserve_all_tensors costs %d native bytes; the dump takes %d bytes on disk%n", d.extraTotalBytes(),
                d.bytesWritten());
        out.println(d.outputsMatch() ? "dumped outputs equal the run's outputs byte for byte"
                : "dumped outputs DIFFER from the run's (" + d.outputMismatch() + "): the dump is not the run's");
    }
}
