package dev.tflitearena.plan.place;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The greedy placers on the rw arena of every real model's native snapshot, beside TFLite's own arena. */
class GreedyPlacersRealModelsTest {

    @Test
    void everyPlacerIsValidOnEveryRealModel() {
        System.out.printf("%-42s %8s %10s %10s", "model / subgraph", "buffers", "bound", "tflite");
        GreedyPlacersTest.PLACERS.forEach(p -> System.out.printf(" %18s", p.name()));
        System.out.println();
        for (Path model : TestModels.runnable()) {
            Graph graph = snapshot(model);
            for (Subgraph subgraph : graph.subgraphs()) {
                BufferSet buffers = BufferSet.of(subgraph, graph.options());
                long tflite = new TflitePlanner().plan(subgraph, graph.options()).arenaBytes();
                System.out.printf("%-42s %8d %10d %10d", model.getFileName() + " / " + subgraph.index(),
                        buffers.buffers().size(), buffers.lowerBound(), tflite);
                for (Placer placer : GreedyPlacersTest.PLACERS) {
                    long[] offsets = placer.place(buffers).offsets();
                    buffers.validate(offsets);
                    assertTrue(buffers.arenaBytes(offsets) >= buffers.lowerBound(), placer.name() + " on " + model);
                    System.out.printf(" %18d", buffers.arenaBytes(offsets));
                }
                System.out.println();
            }
        }
    }

    private static Graph snapshot(Path model) {
        try (NativeModel loaded = NativeModel.load(model);
             NativeInterpreter interpreter = NativeInterpreter.build(loaded, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            return interpreter.snapshot();
        }
    }
}
