package dev.tflitearena;

import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.params.provider.Arguments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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

    /** Every runnable real model and every sample, as (name, the model's bytes). */
    public static Stream<Arguments> runnableAndSamples() {
        Stream<Arguments> real = runnable().stream().map(path -> Arguments.of(path.getFileName().toString(),
                read(path)));
        Stream<Arguments> samples = SampleModels.all().entrySet().stream()
                .map(e -> Arguments.of(e.getKey(), e.getValue().get()));
        return Stream.concat(real, samples);
    }

    private static byte[] read(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path named(String fileName) {
        return all().stream().filter(m -> m.getFileName().toString().equals(fileName)).findFirst().orElseThrow();
    }
}
