package dev.tflitearena.bridge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The process's threads that nobody named: the workers of pthreadpool (XNNPACK), ruy and Eigen (TFLite's own
 * threads) inherit the name of the thread that made them ("java"), while the JVM names its own (compiler and GC
 * threads come and go as they please).
 */
public final class ProcessThreads {
    private ProcessThreads() {
    }

    public static long unnamed() throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.filter(task -> "java".equals(comm(task))).count();
        }
    }

    private static String comm(Path task) {
        try {
            return Files.readString(task.resolve("comm")).strip();
        } catch (IOException e) {
            return ""; // the thread ended meanwhile
        }
    }

    /** The unnamed threads once at most {@code most} are left, or after 5 s: joining workers takes a moment. */
    public static long unnamedSettlingTo(long most) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        long count = unnamed();
        while (count > most && System.nanoTime() < deadline) {
            Thread.sleep(20);
            count = unnamed();
        }
        return count;
    }
}
