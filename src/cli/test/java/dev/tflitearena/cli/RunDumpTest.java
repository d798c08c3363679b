package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.dump.NpyFile;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code run --dump-intermediates}: files NumPy reads, a manifest that matches them, and honest figures. */
class RunDumpTest {
    private static final Pattern HEADER = Pattern.compile(
            "\\{'descr': '([<>|][a-z]\\d+)', 'fortran_order': False, 'shape': \\(([0-9, ]*)\\), }\\s*\n");

    @TempDir
    Path temp;

    @Test
    void dumpsEveryActivationOfARealModelAndStatesItsCost() throws Exception {
        Path model = TestModels.named("face_detection_short_range.tflite");
        Path dir = temp.resolve("new/dump");
        JsonNode dump = dump(model, dir, InterpreterSettings.DEFAULT);
        assertEquals(0, dump.get("tensors_without_file").asInt(), dump.toString());
        assertTrue(dump.get("kernel_temporaries_not_dumped").asInt() > 0, "CONV_2D's im2col is a temporary");
        assertTrue(dump.get("files").asInt() > 100);
    }

    @Test
    void dumpsWhatXnnpackComputesAndMatchesItsOutputs() throws Exception {
        Path model = TestModels.named("face_detection_short_range.tflite");
        JsonNode dump = dump(model, temp.resolve("xnnpack"), InterpreterSettings.DEFAULT.withXnnpack(true));
        JsonNode tensors = manifest(temp.resolve("xnnpack")).get("tensors");
        for (JsonNode t : tensors) {
            if (!t.get("file").isNull() && !t.get("producer_node").isNull()) {
                assertTrue(t.get("producer_op").asText().startsWith("DELEGATE"), t::toString);
            }
        }
        assertEquals(tensors.size(), dump.get("files").asInt() + dump.get("tensors_without_file").asInt());
    }

    @Test
    void dumpsEverySubgraphOfAWhileLoop() throws Exception {
        Path dir = dumpSample("while_loop", SampleModels.whileLoop());
        Set<Integer> subgraphs = new HashSet<>();
        for (JsonNode t : manifest(dir).get("tensors")) {
            if (!t.get("file").isNull()) {
                subgraphs.add(t.get("subgraph").asInt());
            } else {
                // The body's inputs live in memory WHILE lends them and rewrites: never dumped as theirs.
                assertEquals(2, t.get("subgraph").asInt(), t::toString);
                assertEquals("custom", t.get("allocation").asText(), t::toString);
            }
        }
        assertEquals(Set.of(0, 1, 2), subgraphs);
        // What the files hold is the loop's real state: three iterations, the last body output is the result.
        assertArrayEquals(littleEndianInt(3), npyData(dir, "sg0_t00003_counter_out.npy"));
        assertArrayEquals(littleEndianInt(3), npyData(dir, "sg2_t00003_i_next.npy"));
        assertArrayEquals(npyData(dir, "sg0_t00004_looped.npy"), npyData(dir, "sg2_t00007_x_next.npy"));
    }

    @Test
    void listsTheQuantizationOfInt8Tensors() throws Exception {
        Path dir = dumpSample("int8_convnet", SampleModels.int8ConvNet());
        JsonNode quantized = null;
        for (JsonNode t : manifest(dir).get("tensors")) {
            if (t.get("name").asText().equals("quantized")) {
                quantized = t;
            }
        }
        assertNotNull(quantized);
        assertEquals("INT8", quantized.get("type").asText());
        assertEquals("QUANTIZE", quantized.get("producer_op").asText());
        assertEquals(0.05, quantized.get("quantization").get("scale").get(0).asDouble(), 1e-7);
        assertEquals(-3, quantized.get("quantization").get("zero_point").get(0).asInt());
    }

    @Test
    void refusesANonEmptyDirectoryUnlessForcedAndThenKeepsForeignFiles() throws Exception {
        Path model = TestModels.named("face_detection_short_range.tflite");
        Path dir = Files.createDirectories(temp.resolve("busy"));
        Path foreign = Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.writeString(dir.resolve("sg0_t99999_stale.npy"), "stale");
        Cli.Result refused = Cli.run("run", model.toString(), "--invokes", "1", "--dump-intermediates", dir.toString());
        assertEquals(Main.EXIT_ERROR, refused.status());
        assertTrue(refused.err().contains(dir + ": is not empty") && refused.err().contains("--force"), refused.err());
        assertFalse(Files.exists(dir.resolve(dev.tflitearena.bridge.dump.IntermediateDump.MANIFEST)));

        Cli.Result forced = Cli.run("run", model.toString(), "--invokes", "1", "--dump-intermediates", dir.toString(),
                "--force", "--json");
        assertEquals(0, forced.status(), forced.err());
        assertTrue(Files.exists(foreign), "a file the dump did not write is left alone");
        assertFalse(Files.exists(dir.resolve("sg0_t99999_stale.npy")), "an earlier dump's file is replaced");
        assertEquals(forced.json().get("dump").get("files").asInt(), npyFiles(dir).size());
    }

    @Test
    void refusesAFileAsDirectoryAndForceAlone() throws Exception {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        Path file = Files.writeString(temp.resolve("file"), "x");
        Cli.Result notDir = Cli.run("run", model, "--dump-intermediates", file.toString());
        assertEquals(Main.EXIT_ERROR, notDir.status());
        assertTrue(notDir.err().contains(file + ": exists and is not a directory"), notDir.err());
        Cli.Result forceAlone = Cli.run("run", model, "--force");
        assertEquals(Main.EXIT_ERROR, forceAlone.status());
        assertTrue(forceAlone.err().contains("--force only applies to --dump-intermediates"), forceAlone.err());
    }

    /**
     * Runs the command, then checks what any dump must satisfy: one file per manifest entry with a file, headers
     * NumPy reads with the manifest's shape and type, outputs equal to an independent run's, and figures that
     * add up. Returns the command's dump summary.
     */
    private JsonNode dump(Path model, Path dir, InterpreterSettings settings) throws Exception {
        String[] args = settings.xnnpack()
                ? new String[]{"run", model.toString(), "--json", "--xnnpack", "--dump-intermediates", dir.toString()}
                : new String[]{"run", model.toString(), "--json", "--dump-intermediates", dir.toString()};
        Cli.Result result = Cli.run(args);
        assertEquals(0, result.status(), result.err() + result.out());
        JsonNode dump = result.json().get("dump");
        assertTrue(dump.get("outputs_match_run").asBoolean());

        JsonNode manifest = manifest(dir);
        List<Path> files = npyFiles(dir);
        long withFile = 0;
        long dataBytes = 0;
        long written = Files.size(dir.resolve("index.json"));
        for (JsonNode t : manifest.get("tensors")) {
            if (t.get("file").isNull()) {
                assertNotNull(t.get("no_file_because"), t::toString);
                continue;
            }
            withFile++;
            Path file = dir.resolve(t.get("file").asText());
            assertTrue(file.getFileName().toString().startsWith("sg" + t.get("subgraph").asInt() + "_t"));
            byte[] data = checkHeader(file, t);
            dataBytes += data.length;
            written += Files.size(file);
        }
        assertEquals(files.size(), withFile, "one .npy file per manifest entry with a file");
        assertEquals(withFile, dump.get("files").asLong());
        assertEquals(dataBytes, dump.get("data_bytes").asLong());
        assertEquals(written, dump.get("bytes_written").asLong());

        assertTrue(dump.get("normal_arena_bytes").asLong() > 0);
        assertTrue(dump.get("preserve_all_arena_bytes").asLong() > dump.get("normal_arena_bytes").asLong());
        assertEquals(dump.get("preserve_all_arena_bytes").asLong() + dump.get("preserve_all_persistent_bytes").asLong()
                        - dump.get("normal_arena_bytes").asLong() - dump.get("normal_persistent_bytes").asLong(),
                dump.get("preserve_all_extra_total_bytes").asLong());
        ArenaFields.assertNamed(dump, "normal_arena_bytes", "normal_persistent_bytes", "preserve_all_arena_bytes",
                "preserve_all_persistent_bytes", "preserve_all_extra_total_bytes");

        checkOutputsEqualAnIndependentRun(model, settings, dir, manifest);
        checkWithNumpy(dir);
        return dump;
    }

    private static void checkOutputsEqualAnIndependentRun(Path model, InterpreterSettings settings, Path dir,
                                                          JsonNode manifest) throws IOException {
        byte[][] outputs;
        try (NativeModel loaded = NativeModel.load(model)) {
            outputs = DifferentialRun.run(loaded, settings, new TflitePlanner(), 3, 1, false).outputs();
        }
        int compared = 0;
        for (JsonNode t : manifest.get("tensors")) {
            if (t.get("subgraph").asInt() == 0 && t.has("graph_output")) {
                byte[] data = checkHeader(dir.resolve(t.get("file").asText()), t);
                assertArrayEquals(outputs[t.get("graph_output").asInt()], data, t::toString);
                compared++;
            }
        }
        assertEquals(outputs.length, compared);
    }

    /** Parses the header by the format's own rules, not the writer's code; returns the data behind it. */
    private static byte[] checkHeader(Path file, JsonNode tensor) throws IOException {
        byte[] all = Files.readAllBytes(file);
        assertArrayEquals(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}, Arrays.copyOf(all, 8));
        int headerLength = ByteBuffer.wrap(all, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xFFFF;
        assertEquals(0, (10 + headerLength) % 16, "data starts aligned");
        String header = new String(all, 10, headerLength, StandardCharsets.US_ASCII);
        byte[] data = Arrays.copyOfRange(all, 10 + headerLength, all.length);
        Matcher m = HEADER.matcher(header);
        assertTrue(m.matches(), header);
        assertEquals(NpyFile.dtype(TensorType.byName(tensor.get("type").asText())), m.group(1));
        int[] shape = m.group(2).isBlank() ? new int[0]
                : Arrays.stream(m.group(2).split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .mapToInt(Integer::parseInt).toArray();
        int[] expected = new int[tensor.get("shape").size()];
        Arrays.setAll(expected, i -> tensor.get("shape").get(i).asInt());
        assertArrayEquals(expected, shape, file::toString);
        assertEquals(tensor.get("bytes").asLong(), data.length);
        return data;
    }

    /** numpy.load reads every file with the manifest's shape and byte count, when python3 and NumPy are there. */
    private static void checkWithNumpy(Path dir) throws Exception {
        String script = """
                import json, os, sys
                import numpy as np
                d = sys.argv[1]
                m = json.load(open(os.path.join(d, 'index.json')))
                n = 0
                for t in m['tensors']:
                    if t['file']:
                        a = np.load(os.path.join(d, t['file']))
                        assert list(a.shape) == t['shape'], t
                        assert a.nbytes == t['bytes'], t
                        assert a.dtype.name == {'FLOAT32': 'float32', 'INT8': 'int8', 'UINT8': 'uint8',
                            'INT32': 'int32', 'INT64': 'int64', 'BOOL': 'bool', 'FLOAT16': 'float16',
                            'INT16': 'int16'}.get(t['type'], a.dtype.name), t
                        n += 1
                print(n)
                """;
        Process python;
        try {
            python = new ProcessBuilder("python3", "-c", script, dir.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return; // no python3: the header checks above stand alone
        }
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(60, TimeUnit.SECONDS));
        if (out.contains("No module named 'numpy'")) {
            return;
        }
        assertEquals(0, python.exitValue(), out);
        assertEquals(npyFiles(dir).size(), Integer.parseInt(out.strip()), out);
    }

    /** Dumps a sample model, written to a file as the command takes one; returns the dump's directory. */
    private Path dumpSample(String name, byte[] model) throws Exception {
        Path file = Files.write(temp.resolve(name + ".tflite"), model);
        Path dir = temp.resolve(name);
        dump(file, dir, InterpreterSettings.DEFAULT);
        return dir;
    }

    private static byte[] littleEndianInt(int value) {
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    private static byte[] npyData(Path dir, String file) throws IOException {
        byte[] all = Files.readAllBytes(dir.resolve(file));
        int headerLength = ByteBuffer.wrap(all, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xFFFF;
        return Arrays.copyOfRange(all, 10 + headerLength, all.length);
    }

    private static JsonNode manifest(Path dir) throws IOException {
        return new ObjectMapper().readTree(dir.resolve("index.json").toFile());
    }

    private static List<Path> npyFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".npy")).toList();
        }
    }
}
