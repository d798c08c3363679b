package dev.tflitearena;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The real models listed in tests/models.txt, fetched by tests/fetch-models.sh. A missing one fails. */
public final class TestModels {
    /** Models that need a custom op the builtin resolver lacks: Convolution2DTransposeBias. */
    public static final List<String> NEED_CUSTOM_OPS =
            List.of("selfie_segmentation.tflite", "selfie_segmentation_landscape.tflite");

    private TestModels() {
    }

    public static Path directory() {
        return Path.of(System.getProperty("tflitearena.models", "tests/models"));
    }

    public static List<Path> all() {
        try {
            List<Path> models = Files.readAllLines(Path.of("tests/models.txt")).stream()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .map(line -> directory().resolve(line.split("\\s+")[2]))
                    .toList();
            for (Path model : models) {
                if (!Files.isRegularFile(model)) {
                    throw new IllegalStateException(model + " is missing: run tests/fetch-models.sh");
                }
            }
            return models;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The models builtin ops can run. */
    public static List<Path> runnable() {
        return all().stream().filter(m -> !NEED_CUSTOM_OPS.contains(m.getFileName().toString())).toList();
    }

    public static Path named(String fileName) {
        return all().stream().filter(m -> m.getFileName().toString().equals(fileName)).findFirst().orElseThrow();
    }
}
