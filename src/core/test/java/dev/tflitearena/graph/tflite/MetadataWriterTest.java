package dev.tflitearena.graph.tflite;

import dev.tflitearena.TestModels;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.Model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A metadata entry put into a model: the rest of the model stays byte for byte, and the entry reads back. */
class MetadataWriterTest {
    private static final String NAME = "tflite_arena_test";

    private static Map<String, byte[]> everyModel() throws IOException {
        Map<String, byte[]> models = new LinkedHashMap<>();
        SampleModels.all().forEach((name, model) -> models.put(name, model.get()));
        models.put("tflm_offline_plan", SampleModels.tflmOfflinePlan());
        for (Path model : TestModels.all()) {
            models.put(model.getFileName().toString(), Files.readAllBytes(model));
        }
        return models;
    }

    @Test
    void everyModelKeepsItsBytesAndGainsTheEntry() throws IOException {
        byte[] data = "the entry's data".getBytes(StandardCharsets.UTF_8);
        for (Map.Entry<String, byte[]> m : everyModel().entrySet()) {
            byte[] before = m.getValue();
            byte[] after = MetadataWriter.put(before, NAME, data, false);
            String what = m.getKey();
            assertEquals(0, (after.length - before.length) % MetadataWriter.ALIGNMENT, what + ": prefix aligned");
            assertArrayEquals(before, Arrays.copyOfRange(after, after.length - before.length, after.length),
                    what + ": the model follows the new root table unchanged");
            TfliteModel a = TfliteFile.read(before);
            TfliteModel b = TfliteFile.read(after);
            assertEquals(a.metadata().size() + 1, b.metadata().size(), what);
            TfliteModel.Metadata entry = b.metadata().get(b.metadata().size() - 1);
            assertEquals(NAME, entry.name(), what);
            assertArrayEquals(data, entry.data(), what);
            assertEquals(a.bufferCount() + 1, b.bufferCount(), what);
            assertSameModel(a, b, what);
            ByteBuffer view = Model.getRootAsModel(ByteBuffer.wrap(after)).buffers(entry.buffer()).dataAsByteBuffer();
            assertEquals(0, view.position() % MetadataWriter.ALIGNMENT, what + ": the entry's data is 16-aligned");
        }
    }

    /** The two read alike but for the metadata and the buffer count. */
    private static void assertSameModel(TfliteModel a, TfliteModel b, String what) {
        assertEquals(a.version(), b.version(), what);
        assertEquals(a.description(), b.description(), what);
        assertEquals(a.subgraphs().size(), b.subgraphs().size(), what);
        for (int s = 0; s < a.subgraphs().size(); s++) {
            ModelAssertions.assertSameSubgraph(a.subgraph(s), b.subgraph(s), what + ", subgraph " + s);
        }
        ModelAssertions.assertSameMetadata(a, b, what);
    }

    @Test
    void anEntryOfTheSameNameIsRefusedUnlessReplaced() {
        byte[] once = MetadataWriter.put(SampleModels.int8ConvNet(), NAME, new byte[]{1, 2, 3}, false);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> MetadataWriter.put(once, NAME, new byte[]{4}, false));
        assertTrue(refused.getMessage().contains("has metadata '" + NAME + "' already"), refused.getMessage());

        byte[] twice = MetadataWriter.put(once, NAME, new byte[]{4, 5}, true);
        TfliteModel model = TfliteFile.read(twice);
        assertEquals(1, model.metadata().stream().filter(m -> m.name().equals(NAME)).count());
        assertArrayEquals(new byte[]{4, 5}, model.metadata().stream().filter(m -> m.name().equals(NAME))
                .findFirst().orElseThrow().data());
        assertEquals(TfliteFile.read(once).bufferCount(), model.bufferCount(), "the entry's buffer is reused");
    }

    @Test
    void aCorruptModelIsRefusedByTheReader() {
        byte[] model = SampleModels.int8ConvNet();
        byte[] truncated = Arrays.copyOf(model, model.length / 2);
        assertThrows(InvalidModelException.class, () -> MetadataWriter.put(truncated, NAME, new byte[0], false));
    }
}
