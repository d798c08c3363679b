package dev.tflitearena.graph.tflite;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pure-Java reader on the real models, checked against what the native runtime makes of them. */
class TfliteFileTest {
    @TempDir
    Path temp;

    static List<Path> allModels() {
        return TestModels.all();
    }

    static List<Path> runnableModels() {
        return TestModels.runnable();
    }

    @ParameterizedTest
    @MethodSource("allModels")
    void everyRealModelReadsAndItsGraphSurvivesTheJsonRoundTripAndPlans(Path file) throws IOException {
        TfliteModel model = TfliteFile.read(file);
        assertEquals(3, model.version());
        assertFalse(model.subgraphs().isEmpty());
        TfliteSubgraph main = model.subgraph(0);
        assertTrue(main.tensors().size() > 100, file + " has " + main.tensors().size() + " tensors");
        assertTrue(main.operators().size() > 10);
        for (TfliteTensor t : main.tensors()) {
            assertTrue(t.type() != null && t.bytes() >= 0, t.toString());
        }
        Graph graph = model.toGraph();
        String json = GraphJson.toJson(graph);
        assertEquals(json, GraphJson.toJson(GraphJson.parse(json)));
        assertTrue(new TflitePlanner().plan(graph).subgraphs().get(0).arenaBytes() > 0);
    }

    @Test
    void theShortRangeFaceDetectorIsWhatMediaPipeShips() throws IOException {
        TfliteModel model = TfliteFile.read(TestModels.named("face_detection_short_range.tflite"));
        assertEquals(1, model.subgraphs().size());
        TfliteSubgraph main = model.subgraph(0);
        assertEquals(250, main.tensors().size());
        assertEquals(164, main.operators().size());
        assertEquals(1, main.inputs().length);
        assertEquals(2, main.outputs().length);
        TfliteTensor input = main.tensor(main.inputs()[0]);
        assertEquals("input", input.name());
        assertEquals(TensorType.FLOAT32, input.type());
        assertArrayEquals(new int[]{1, 128, 128, 3}, input.shape());
        assertEquals(128 * 128 * 3 * 4, input.bytes());
        assertFalse(input.constant());
        assertNull(input.shapeSignature());
        assertEquals(85, main.tensors().stream().filter(TfliteTensor::constant).count());
        assertTrue(main.tensors().stream().filter(TfliteTensor::constant).allMatch(t -> t.type() == TensorType.FLOAT16
                || t.type() == TensorType.INT32), "float16 weights, int32 shapes");
        assertEquals(74, main.operators().stream().filter(o -> o.op().equals("DEQUANTIZE")).count());
        assertEquals(2, main.operators().stream().filter(o -> o.op().equals("DEQUANTIZE")).findFirst().orElseThrow()
                .version());
    }

    @Test
    void sparseWeightsShapeSignaturesAndCustomOpsOfTheRealModels() throws IOException {
        TfliteSubgraph sparse = TfliteFile.read(TestModels.named("face_detection_full_range_sparse.tflite")).subgraph(0);
        List<TfliteTensor> sparseTensors = sparse.tensors().stream().filter(TfliteTensor::sparse).toList();
        assertEquals(46, sparseTensors.size());
        assertTrue(sparseTensors.stream().allMatch(t -> t.constant() && t.dataBytes() < t.bytes()),
                "sparse constants hold less data than their dense shape");
        assertEquals(46, sparse.operators().stream().filter(o -> o.op().equals("DENSIFY")).count());

        TfliteSubgraph objectron = TfliteFile.read(TestModels.named("object_detection_3d_cup.tflite")).subgraph(0);
        TfliteTensor input = objectron.tensor(objectron.inputs()[0]);
        assertArrayEquals(new int[]{1, 224, 224, 3}, input.shape());
        assertArrayEquals(new int[]{-1, 224, 224, 3}, input.shapeSignature());

        TfliteSubgraph selfie = TfliteFile.read(TestModels.named("selfie_segmentation.tflite")).subgraph(0);
        TfliteOperator custom = selfie.operators().stream().filter(o -> o.op().equals("Convolution2DTransposeBias"))
                .findFirst().orElseThrow();
        assertEquals(32, custom.builtinCode());
    }

    /**
     * The file's graph is the native graph less what prepare adds: same tensors, names, types, shapes and
     * sizes, constants read-only, the same nodes in the same order. Kernels may turn an arena tensor
     * persistent and add temporaries after the file's tensors; DENSIFY also renames its output
     * ("Densify_output").
     */
    @ParameterizedTest
    @MethodSource("runnableModels")
    void theFilesGraphIsTheNativeGraphBeforePrepare(Path file) throws IOException {
        Graph fromFile = TfliteFile.read(file).toGraph();
        Graph fromNative;
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            fromNative = interpreter.snapshot();
        }
        assertEquals(fromNative.subgraphs().size(), fromFile.subgraphs().size());
        Subgraph mine = fromFile.subgraphs().get(0);
        Subgraph theirs = fromNative.subgraphs().get(0);
        assertTrue(theirs.tensors().size() >= mine.tensors().size());
        Set<Integer> densified = mine.nodes().stream().filter(n -> n.op().equals("DENSIFY"))
                .map(n -> n.outputs()[0]).collect(Collectors.toSet());
        for (Tensor t : mine.tensors()) {
            Tensor n = theirs.tensor(t.index());
            String at = file.getFileName() + " tensor " + t.index();
            if (!densified.contains(t.index())) {
                assertEquals(n.name(), t.name(), at);
            }
            assertEquals(n.type(), t.type(), at);
            assertArrayEquals(n.shape(), t.shape(), at);
            assertEquals(n.bytes(), t.bytes(), at);
            if (t.allocation() == Allocation.ARENA_RW) {
                assertTrue(n.allocation().isArena(), at + " is " + n.allocation());
            } else {
                assertEquals(n.allocation(), t.allocation(), at);
            }
        }
        assertEquals(theirs.nodes().size(), mine.nodes().size());
        for (int i = 0; i < mine.nodes().size(); i++) {
            Node m = mine.nodes().get(i);
            Node n = theirs.nodes().get(i);
            assertEquals(n.op(), m.op(), "node " + i);
            assertArrayEquals(n.inputs(), m.inputs(), "node " + i);
            assertArrayEquals(n.outputs(), m.outputs(), "node " + i);
            assertEquals(0, m.temporaries().length);
        }
        assertArrayEquals(theirs.inputs(), mine.inputs());
        assertArrayEquals(theirs.outputs(), mine.outputs());
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = temp.resolve("missing.tflite");
        FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> TfliteFile.read(missing));
        assertEquals(missing + ": no such readable file", e.getMessage());
    }
}
