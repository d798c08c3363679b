package dev.tflitearena.graph.tflite;

import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.TensorType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Models the builder writes are models the native runtime loads, verifies, allocates and runs. */
class BuiltModelsRunNativelyTest {
    @TempDir
    Path temp;

    private static float[] floats(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] values = new float[bytes.length / Float.BYTES];
        for (int i = 0; i < values.length; i++) {
            values[i] = b.getFloat();
        }
        return values;
    }

    @Test
    void theNativeRuntimeAddsTwoInputsOfABuiltModel() throws IOException {
        Path file = Files.write(temp.resolve("add.tflite"), TinyModels.add());
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            assertEquals(2, interpreter.inputCount());
            assertEquals("FLOAT32", interpreter.input(0).type());
            interpreter.writeInput(0, TfliteModelBuilder.littleEndian(1f, 2f, 3f, 4f));
            interpreter.writeInput(1, TfliteModelBuilder.littleEndian(10f, 20f, 30f, 40f));
            interpreter.invoke();
            assertArrayEquals(new float[]{11f, 22f, 33f, 44f}, floats(interpreter.readOutput(0)));
        }
    }

    @Test
    void aWhileLoopOverTwoMoreSubgraphsLoadsAllocatesAndRuns() throws IOException {
        byte[] bytes = TinyModels.whileLoop();
        Path file = Files.write(temp.resolve("while.tflite"), bytes);
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            Graph snapshot = interpreter.snapshot();
            assertEquals(3, snapshot.subgraphs().size());
            assertEquals("WHILE", snapshot.subgraphs().get(0).nodes().get(0).op());
            interpreter.writeInput(0, TfliteModelBuilder.littleEndian(0));
            interpreter.writeInput(1, TfliteModelBuilder.littleEndian(1f, -2f, 0.5f, 3f));
            interpreter.invoke();
            assertArrayEquals(TfliteModelBuilder.littleEndian(TinyModels.WHILE_LIMIT), interpreter.readOutput(0));
            assertArrayEquals(new float[]{8f, -16f, 4f, 24f}, floats(interpreter.readOutput(1)));
        }
        TfliteModel read = TfliteFile.read(bytes);
        assertEquals(3, read.subgraphs().size());
        assertEquals("LESS", read.subgraph(1).operators().get(0).op());
        assertEquals(Allocation.MMAP_RO, read.toGraph().subgraphs().get(2).tensor(2).allocation());
    }

    /** The byte count of an INT4 tensor is what the runtime allocates: packed two to a byte. */
    @ParameterizedTest
    @CsvSource({"INT4, 1:6", "INT4, 3:3", "INT4, 7", "INT8, 3:3"})
    void packedIntTensorsTakeTheArenaBytesTheRuntimeGivesThem(TensorType type, String dims) throws IOException {
        int[] shape = Arrays.stream(dims.split(":")).mapToInt(Integer::parseInt).toArray();
        TfliteModelBuilder builder = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = builder.subgraph("main");
        int a = main.tensor("a", type, shape);
        main.inputs(a);
        main.outputs(a);
        byte[] bytes = builder.build();
        Path file = Files.write(temp.resolve("packed.tflite"), bytes);
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter interpreter = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            interpreter.allocateTensors();
            dev.tflitearena.graph.Tensor nativeTensor = interpreter.snapshot().subgraphs().get(0).tensor(a);
            dev.tflitearena.graph.Tensor fileTensor = TfliteFile.read(bytes).toGraph().subgraphs().get(0).tensor(a);
            assertEquals(nativeTensor.bytes(), fileTensor.bytes(), type + " " + dims);
            assertEquals(nativeTensor.allocation(), fileTensor.allocation());
        }
    }
}
