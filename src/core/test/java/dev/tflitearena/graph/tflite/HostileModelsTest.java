package dev.tflitearena.graph.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.tflitearena.TestModels;
import dev.tflitearena.graph.GraphJson;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.Buffer;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.ModelT;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.SubGraphT;
import org.tensorflow.lite.schema.Tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Corrupt, truncated and hostile files: every one must read as a valid model or be refused with an
 * InvalidModelException naming the file, never another exception, and quickly.
 */
class HostileModelsTest {
    private static final Duration QUICKLY = Duration.ofSeconds(30);
    private static final String NAME = "mutant.tflite";

    private static byte[] realModel() throws IOException {
        return Files.readAllBytes(TestModels.named("face_detection_short_range.tflite"));
    }

    private static List<byte[]> tinyModels() {
        return List.of(TinyModels.add(), TinyModels.whileLoop());
    }

    /** Reads a mutant; returns true when it was refused. Any exception but InvalidModelException fails. */
    private static boolean readsOrIsRefused(byte[] bytes) {
        try {
            TfliteModel model = TfliteFile.read(bytes, NAME);
            GraphJson.toJson(model.toGraph());
            return false;
        } catch (InvalidModelException e) {
            assertTrue(e.getMessage().startsWith(NAME + ": "), e.getMessage());
            return true;
        }
    }

    @Test
    void emptyShortAndUnidentifiedFilesAreRefusedByName() {
        InvalidModelException empty = assertThrows(InvalidModelException.class, () -> TfliteFile.read(new byte[0], "x.tflite"));
        assertEquals("x.tflite: empty file", empty.getMessage());
        assertThrows(InvalidModelException.class, () -> TfliteFile.read(new byte[7], "x.tflite"));
        byte[] zeros = new byte[4096];
        InvalidModelException e = assertThrows(InvalidModelException.class, () -> TfliteFile.read(zeros, "x.tflite"));
        assertTrue(e.getMessage().contains("lacks the TFLite identifier 'TFL3'; it has '\\x00\\x00\\x00\\x00'"),
                e.getMessage());
        byte[] text = "hello, this is not a model at all; it is plain text of some length".getBytes();
        assertThrows(InvalidModelException.class, () -> TfliteFile.read(text, "x.tflite"));
    }

    /** A model whose references break the rules, one at a time, through the schema's object API. */
    private static String refusal(Consumer<ModelT> breakIt) {
        ModelT model = ModelT.deserializeFromBinary(TinyModels.whileLoop());
        breakIt.accept(model);
        byte[] bytes = model.serializeToBinary();
        return assertThrows(InvalidModelException.class, () -> TfliteFile.read(bytes, "x.tflite")).getMessage();
    }

    @Test
    void brokenReferencesAreRefusedNamingWhatAndWhere() {
        assertEquals("x.tflite: tensor 2 of subgraph 1 refers to buffer 99, the model has 3",
                refusal(m -> m.getSubgraphs()[1].getTensors()[2].setBuffer(99)));
        assertEquals("x.tflite: operator 1 of subgraph 2 refers to operator code 7, the model has 3",
                refusal(m -> m.getSubgraphs()[2].getOperators()[1].setOpcodeIndex(7)));
        assertEquals("x.tflite: operator 0 of subgraph 2 (ADD) inputs[1] is 5, which refers to no tensor "
                + "(the subgraph has 5)", refusal(m -> m.getSubgraphs()[2].getOperators()[0].setInputs(new int[]{0, 5})));
        assertEquals("x.tflite: operator 0 of subgraph 0 (WHILE) refers to subgraph 3 as its body, the model has 3",
                refusal(m -> m.getSubgraphs()[0].getOperators()[0].getBuiltinOptions().asWhileOptions()
                        .setBodySubgraphIndex(3)));
        assertEquals("x.tflite: subgraph 1 outputs[0] is -2, which refers to no tensor (the subgraph has 4)",
                refusal(m -> m.getSubgraphs()[1].setOutputs(new int[]{-2})));
        assertEquals("x.tflite: tensor 0 of subgraph 0 has shape [1, -1]: a negative dimension (dynamic ones "
                + "belong in shape_signature)", refusal(m -> m.getSubgraphs()[0].getTensors()[0].setShape(new int[]{1, -1})));
        assertEquals("x.tflite: tensor 1 of subgraph 0 has shape [65536, 65536, 65536, 65536], too large for its "
                + "size to fit a long", refusal(m -> m.getSubgraphs()[0].getTensors()[1]
                .setShape(new int[]{65536, 65536, 65536, 65536})));
        assertEquals("x.tflite: tensor 2 of subgraph 1 is a variable with constant data in buffer 1, which TFLite "
                + "refuses", refusal(m -> m.getSubgraphs()[1].getTensors()[2].setIsVariable(true)));
        assertEquals("x.tflite: schema version 2; TFLite reads version 3", refusal(m -> m.setVersion(2)));
        assertEquals("x.tflite: the model has no subgraph", refusal(m -> m.setSubgraphs(new SubGraphT[0])));
        assertEquals("x.tflite: operator code 0 is CUSTOM but names no custom op",
                refusal(m -> {
                    m.getOperatorCodes()[0].setBuiltinCode(BuiltinOperator.CUSTOM);
                    m.getOperatorCodes()[0].setDeprecatedBuiltinCode((byte) BuiltinOperator.CUSTOM);
                }));
    }

    @Test
    void aWrongIdentifierOverAGoodRootStillReadsAndOverGarbageIsRefused() throws IOException {
        byte[] model = realModel();
        System.arraycopy("XXXX".getBytes(), 0, model, 4, 4);
        assertEquals(250, TfliteFile.read(model, NAME).subgraph(0).tensors().size());
        ByteBuffer.wrap(model).order(ByteOrder.LITTLE_ENDIAN).putInt(0, model.length - 2);
        InvalidModelException e = assertThrows(InvalidModelException.class, () -> TfliteFile.read(model, NAME));
        assertTrue(e.getMessage().endsWith("it has 'XXXX' there)"), e.getMessage());
    }

    @Test
    void everyTruncationIsRefused() throws IOException {
        assertTimeoutPreemptively(QUICKLY, () -> {
            for (byte[] model : tinyModels()) {
                for (int length = 0; length < model.length; length++) {
                    assertTrue(readsOrIsRefused(Arrays.copyOf(model, length)), "truncated at " + length);
                }
            }
            byte[] real = realModel();
            for (int length = 0; length < real.length; length += 797) {
                assertTrue(readsOrIsRefused(Arrays.copyOf(real, length)), "truncated at " + length);
            }
        });
    }

    @Test
    void everySingleBitFlipOfATinyModelReadsOrIsRefused() {
        assertTimeoutPreemptively(QUICKLY, () -> {
            for (byte[] model : tinyModels()) {
                for (int bit = 0; bit < model.length * 8; bit++) {
                    byte[] mutant = model.clone();
                    mutant[bit / 8] ^= (byte) (1 << (bit % 8));
                    readsOrIsRefused(mutant);
                }
            }
        });
    }

    /** Every aligned word of a tiny model set to a count or offset no file backs. */
    @Test
    void absurdCountsAndOffsetsAreRefusedWithoutAllocatingForThem() {
        int[] absurd = {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, -4, 0x10000000, 0x3FFFFFFF, 0x40000001};
        assertTimeoutPreemptively(QUICKLY, () -> {
            for (byte[] model : tinyModels()) {
                for (int at = 0; at + 4 <= model.length; at += 4) {
                    for (int value : absurd) {
                        byte[] mutant = model.clone();
                        ByteBuffer.wrap(mutant).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
                        readsOrIsRefused(mutant);
                    }
                }
            }
        });
    }

    /** Seeded random bit flips and word smashes in the real model's tables (its weights would read anyway). */
    @Test
    void randomMutantsOfARealModelReadOrAreRefused() throws IOException {
        byte[] real = realModel();
        List<Integer> structure = outsideBufferData(real);
        Random random = new Random(20240611);
        assertTimeoutPreemptively(QUICKLY, () -> {
            int refused = 0;
            int mutants = 400;
            for (int m = 0; m < mutants; m++) {
                byte[] mutant = real.clone();
                int changes = 1 + random.nextInt(8);
                for (int c = 0; c < changes; c++) {
                    int at = structure.get(random.nextInt(structure.size()));
                    if (random.nextBoolean()) {
                        mutant[at] ^= (byte) (1 << random.nextInt(8));
                    } else if (at + 4 <= mutant.length) {
                        ByteBuffer.wrap(mutant).order(ByteOrder.LITTLE_ENDIAN).putInt(at & ~3, random.nextInt());
                    }
                }
                if (readsOrIsRefused(mutant)) {
                    refused++;
                }
            }
            assertTrue(refused > mutants / 10, "only " + refused + " of " + mutants + " refused: mutate the tables");
        });
    }

    /** Positions of a model's bytes that are not constant data: the tables, vectors and strings. */
    private static List<Integer> outsideBufferData(byte[] model) {
        boolean[] data = new boolean[model.length];
        Model m = Model.getRootAsModel(ByteBuffer.wrap(model));
        for (int b = 0; b < m.buffersLength(); b++) {
            ByteBuffer view = m.buffers(b).dataAsByteBuffer();
            if (view != null) {
                Arrays.fill(data, view.position(), view.limit(), true);
            }
        }
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < model.length; i++) {
            if (!data[i]) {
                positions.add(i);
            }
        }
        return positions;
    }

    /**
     * A small file whose tensors vector points at one tensor table over and over, that tensor holding a
     * long name and a long shape: following every reference would read gigabytes.
     */
    @Test
    void tablesSharedOverAndOverAreRefusedQuickly() {
        FlatBufferBuilder fbb = new FlatBufferBuilder(1 << 20);
        int name = fbb.createString("n".repeat(1 << 16));
        int[] ones = new int[1 << 14];
        Arrays.fill(ones, 1);
        int shape = Tensor.createShapeVector(fbb, ones);
        Tensor.startTensor(fbb);
        Tensor.addName(fbb, name);
        Tensor.addShape(fbb, shape);
        int tensor = Tensor.endTensor(fbb);
        int copies = 200_000;
        SubGraph.startTensorsVector(fbb, copies);
        for (int i = 0; i < copies; i++) {
            fbb.addOffset(tensor);
        }
        int tensors = fbb.endVector();
        SubGraph.startSubGraph(fbb);
        SubGraph.addTensors(fbb, tensors);
        int subgraph = SubGraph.endSubGraph(fbb);
        Buffer.startBuffer(fbb);
        int sentinel = Buffer.endBuffer(fbb);
        int model = Model.createModel(fbb, 3, Model.createOperatorCodesVector(fbb, new int[0]),
                Model.createSubgraphsVector(fbb, new int[]{subgraph}), 0,
                Model.createBuffersVector(fbb, new int[]{sentinel}), 0, 0, 0);
        Model.finishModelBuffer(fbb, model);
        byte[] bomb = fbb.sizedByteArray();
        assertTrue(bomb.length < 1_000_000);
        InvalidModelException e = assertTimeoutPreemptively(QUICKLY,
                () -> assertThrows(InvalidModelException.class, () -> TfliteFile.read(bomb, NAME)));
        assertTrue(e.getMessage().contains("refer to far more data than the file's"), e.getMessage());
    }
}
