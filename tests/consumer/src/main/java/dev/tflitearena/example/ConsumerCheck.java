package dev.tflitearena.example;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.session.Outputs;
import dev.tflitearena.session.Session;
import dev.tflitearena.session.SessionOptions;
import dev.tflitearena.session.SessionPool;
import dev.tflitearena.session.TensorInfo;
import dev.tflitearena.session.TfLiteModel;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

/**
 * What an application that depends on tflite-arena-platform alone gets. It serves a model from a pool of
 * sessions to several threads at once, checks every output of every call byte for byte against the same input
 * through one native-planned session, and checks that nothing on its class path is a benchmark, command-line
 * or logging-binding jar. Prints what it found and the class path's jar count; exits 1 on any failure.
 *
 * <p>Usage: {@code ConsumerCheck MODEL.tflite} (a model with float32 inputs).
 */
public final class ConsumerCheck {
    private static final int SESSIONS = 3;
    private static final int CALLERS = 6;
    private static final int CALLS_PER_CALLER = 4;
    /** What must not reach an application through the library, by a path inside the jar that marks it. */
    private static final Map<String, String> FORBIDDEN = Map.of(
            "org/openjdk/jmh/", "JMH",
            "ai/djl/", "DJL",
            "picocli/", "picocli",
            "org/slf4j/impl/StaticLoggerBinder.class", "an SLF4J 1 binding",
            "META-INF/services/org.slf4j.spi.SLF4JServiceProvider", "an SLF4J 2 binding");

    private ConsumerCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ConsumerCheck MODEL.tflite");
            System.exit(2);
        }
        List<String> failures = new ArrayList<>(checkClassPath());
        failures.addAll(servePool(Path.of(args[0])));
        if (failures.isEmpty()) {
            System.out.println("consumer: ok");
        } else {
            failures.forEach(f -> System.err.println("consumer: FAILED " + f));
            System.exit(1);
        }
    }

    /** Every jar on the class path, and what it carries that an application should not get. */
    private static List<String> checkClassPath() throws IOException {
        List<String> failures = new ArrayList<>();
        List<String> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            jars.add(Path.of(entry).getFileName().toString());
            try (JarFile jar = new JarFile(entry)) {
                for (Map.Entry<String, String> forbidden : FORBIDDEN.entrySet()) {
                    if (jar.stream().anyMatch(e -> e.getName().startsWith(forbidden.getKey()))) {
                        failures.add(entry + " is " + forbidden.getValue());
                    }
                }
            }
        }
        System.out.println("consumer: " + jars.size() + " jars on the class path: " + String.join(", ", jars));
        return failures;
    }

    /** Calls from several threads at once on a pool with a Java plan, each checked against one native session. */
    private static List<String> servePool(Path file) throws Exception {
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        int calls = CALLERS * CALLS_PER_CALLER;
        try (TfLiteModel model = TfLiteModel.load(file);
             Session reference = model.newSession(SessionOptions.DEFAULT);
             SessionPool pool = model.newPool(SessionOptions.DEFAULT.withPlanner("best-of"), SESSIONS,
                     Duration.ofSeconds(30))) {
            List<Map<String, Object>> inputs = new ArrayList<>();
            List<List<byte[]>> expected = new ArrayList<>();
            for (int call = 0; call < calls; call++) {
                inputs.add(randomInputs(pool.inputs(), new Random(call)));
                expected.add(outputBytes(reference.run(inputs.get(call)), pool.outputs().size()));
            }
            ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
            CountDownLatch start = new CountDownLatch(1);
            for (int caller = 0; caller < CALLERS; caller++) {
                int first = caller * CALLS_PER_CALLER;
                callers.submit(() -> {
                    start.await();
                    for (int call = first; call < first + CALLS_PER_CALLER; call++) {
                        List<byte[]> got = outputBytes(pool.run(inputs.get(call)), pool.outputs().size());
                        for (int o = 0; o < got.size(); o++) {
                            if (!Arrays.equals(got.get(o), expected.get(call).get(o))) {
                                failures.add("call " + call + ": output " + pool.outputs().get(o).name()
                                        + " differs from the single session's");
                            }
                        }
                    }
                    return null;
                });
            }
            start.countDown();
            callers.shutdown();
            if (!callers.awaitTermination(5, TimeUnit.MINUTES)) {
                failures.add("the callers did not finish within 5 minutes");
            }
            System.out.println("consumer: " + calls + " calls from " + CALLERS + " threads on a pool of " + SESSIONS
                    + " sessions (planner best-of), each of " + pool.outputs().size()
                    + " outputs compared with one native-planned session's");
        }
        return new ArrayList<>(failures);
    }

    private static Map<String, Object> randomInputs(List<TensorInfo> inputs, Random random) {
        Map<String, Object> values = new HashMap<>();
        for (TensorInfo input : inputs) {
            if (input.type() != TensorType.FLOAT32) {
                throw new IllegalArgumentException("input " + input + " is not float32");
            }
            float[] data = new float[(int) input.elements()];
            for (int i = 0; i < data.length; i++) {
                data[i] = random.nextFloat() * 2 - 1;
            }
            values.put(input.name(), data);
        }
        return values;
    }

    /** Each output's bytes, whatever its type. */
    private static List<byte[]> outputBytes(Outputs outputs, int count) {
        List<byte[]> bytes = new ArrayList<>();
        for (int o = 0; o < count; o++) {
            ByteBuffer buffer = ByteBuffer.allocate((int) outputs.infos().get(o).bytes());
            outputs.copyTo(o, buffer);
            bytes.add(buffer.array());
        }
        return bytes;
    }
}
