package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.DifferentialRun;
import dev.tflitearena.bridge.Handover;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.plan.Planners;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the model on a Java plan, handed to the native interpreter through custom allocations, "
                + "beside a native-planned interpreter; feeds both the same seeded inputs and compares every output "
                + "byte for byte. Exit status 0 only when all outputs are identical.")
final class RunCommand implements Callable<Integer> {
    static final String NATIVE = "native";

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


    @Mixin
    NativeOptions nativeOptions;

    @Mixin
    Output output;

    @Override
    public Integer call() {
        var strategy = NATIVE.equals(planner) ? null : Planners.byName(planner);
        DifferentialRun.Result result;
        try (NativeModel loaded = NativeModel.load(model)) {
            result = DifferentialRun.run(loaded, nativeOptions.settings(), strategy, invokes, seed, poison);
        }
        output.print(() -> toJson(result), out -> printText(out, result));
        return result.outputsIdentical() ? 0 : CompareCommand.EXIT_DIFFERENT;
    }

    private ObjectNode toJson(DifferentialRun.Result r) {
        Handover h = r.handover();
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        root.put("planner", r.planner());
        root.put("xnnpack", r.settings().xnnpack());
        root.put("resolver", r.settings().resolverName());
        root.put("preserve_all_tensors", r.settings().preserveAllTensors());
        root.put("poison", poison);
        root.put("outputs_identical", r.outputsIdentical());
        if (r.firstDifference() != null) {
            root.put("first_difference", r.firstDifference());
        }
        root.put("invokes", r.invokes());
        root.put("seed", seed);
        root.put("java_arena_bytes", h == null ? 0 : h.javaArenaBytes());
        root.put("persistent_bytes", h == null ? r.candidate().persistentBytes() : h.persistentBytes());
        root.put("tensors_handed_over", h == null ? 0 : h.tensorsHandedOver());
        root.put("native_arena_bytes_left", r.candidate().arenaBytes());
        root.put("native_persistent_bytes_left", r.candidate().persistentBytes());
        root.put("reference_native_arena_bytes", r.reference().arenaBytes());
        root.put("reference_native_persistent_bytes", r.reference().persistentBytes());
        return root;
    }

    private void printText(PrintWriter out, DifferentialRun.Result r) {
        Handover h = r.handover();
        out.printf("%s, planner %s, %s%s%n", model, r.planner(), r.settings().resolverName(),
                r.settings().preserveAllTensors() ? ", preserve_all_tensors" : "");
        TextTable table = new TextTable("", "native-planned", r.planner() + "-planned").leftAlign(0);
        table.add("Java arena bytes", 0, h == null ? 0 : h.javaArenaBytes());
        table.add("  of which persistent", 0, h == null ? 0 : h.persistentBytes());
        table.add("tensors handed over", 0, h == null ? 0 : h.tensorsHandedOver());
        table.add("native arena bytes", r.reference().arenaBytes(), r.candidate().arenaBytes());
        table.add("native persistent bytes", r.reference().persistentBytes(), r.candidate().persistentBytes());
        table.print(out);
        out.printf("%d invoke%s, seed %d%s: outputs %s%n", r.invokes(), r.invokes() == 1 ? "" : "s", seed,
                poison ? ", Java arena poisoned before each" : "",
                r.outputsIdentical() ? "identical" : "DIFFERENT (" + r.firstDifference() + ")");
    }
}
