package dev.tflitearena.cli;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each release's jar gets a JavaCPP cache of its own: JavaCPP keys its cache by the jar's file name, and every
 * release's jar is a tflite-arena.jar, so two releases' JVMs starting at once would extract their different TFLite
 * libraries into one folder.
 */
class ReleaseCacheTest {
    @TempDir
    Path temp;

    @Test
    void releasesWhoseJarsShareAFileNameGetCachesOfTheirOwn() {
        Path a = InterleavedRun.cacheDirectory(Path.of("target", "tflite-2.15", "tflite-arena.jar"));
        Path b = InterleavedRun.cacheDirectory(Path.of("target", "tflite-2.20", "tflite-arena.jar"));
        assertNotEquals(a, b);
        assertTrue(a.getFileName().toString().startsWith("tflite-arena-tflite-2.15-"), a.toString());
        assertEquals(a, InterleavedRun.cacheDirectory(Path.of("target/./tflite-2.15/tflite-arena.jar")),
                "a release's jar finds its cache again");
        List<String> command = InterleavedRun.javaJar(Path.of("target", "tflite-2.20", "tflite-arena.jar"));
        assertTrue(command.contains("-D" + InterleavedRun.CACHE_PROPERTY + "=" + b), command.toString());
    }

    /** Two JVMs at once, as the two sides of a comparison start, each extracting TFLite into its own cache. */
    @Test
    void twoJvmsStartingAtOnceExtractIntoTheirOwnCaches() throws Exception {
        Path model = TestModels.named("face_detection_short_range.tflite");
        List<Process> processes = new ArrayList<>();
        List<Path> caches = List.of(temp.resolve("cache-a"), temp.resolve("cache-b"));
        for (Path cache : caches) {
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-D" + InterleavedRun.CACHE_PROPERTY + "=" + cache, "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "run", model.toString(), "--invokes",
                    "1", "--quiet").redirectOutput(temp.resolve(cache.getFileName() + ".out").toFile())
                    .redirectError(temp.resolve(cache.getFileName() + ".err").toFile());
            builder.environment().put(Main.IN_PROCESS_VARIABLE, "1");
            processes.add(builder.start());
        }
        for (int i = 0; i < processes.size(); i++) {
            int status = processes.get(i).waitFor();
            assertEquals(0, status, Files.readString(temp.resolve(caches.get(i).getFileName() + ".err")));
            assertTrue(holdsTfliteLibrary(caches.get(i)), caches.get(i) + " holds no TFLite library");
        }
    }

    private static boolean holdsTfliteLibrary(Path cache) throws IOException {
        try (Stream<Path> files = Files.walk(cache)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith("libjnitensorflowlite"));
        }
    }
}
