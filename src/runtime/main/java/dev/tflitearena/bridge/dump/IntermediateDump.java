package dev.tflitearena.bridge.dump;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.InterpreterSettings;
import dev.tflitearena.bridge.MemoryInfo;
import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.NativeModel;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.presets.NativeTensors;
import dev.tflitearena.bridge.presets.ReadableMemory;
import dev.tflitearena.bridge.snapshot.GraphSnapshot;
import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TensorType;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteAffineQuantization;
import org.bytedeco.tensorflowlite.TfLiteQuantization;
import org.bytedeco.tensorflowlite.TfLiteTensor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.GetOpNameByRegistration;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteAffineQuantization;

/**
 * Every intermediate tensor of a run, written to a directory as NumPy files with an {@code index.json}
 * manifest. An interpreter built with {@code preserve_all_tensors} replays the run's seeded invokes: only then
 * does every activation keep its own memory until the end, instead of being overwritten by a later one. What
 * the option costs is measured, not computed: against the run's own native-planned interpreter, or one that
 * replays the run without the option where the run had it. The dump is trusted only if its graph outputs, read back from the files, equal the run's.
 *
 * <p>Dumped: the graph inputs, graph outputs, variables and node outputs of every subgraph, as they hold after
 * the last invoke (a control-flow body's, its last iteration). Not dumped: constants, and kernel temporaries,
 * which are scratch whose bytes mean nothing outside the kernel. Listed without a file: tensors whose type has
 * no NumPy dtype, tensors with no memory after invoke, tensors inside a delegated partition (a delegate such as
 * XNNPACK computes them in its own buffers, and TFLite's copy is never written), and tensors whose memory
 * belongs to another tensor (shared in place, or lent by a control-flow op), as their bytes may be the other's.
 */
public final class IntermediateDump {
    public static final String MANIFEST = "index.json";
    /** The files a dump writes, which {@code force} deletes first: nothing else in the directory is touched. */
    private static final Pattern DUMP_FILE = Pattern.compile("sg\\d+_t\\d+_.*\\.npy|" + Pattern.quote(MANIFEST));
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");
    /** Keeps file names under the 255 bytes file systems allow, prefix and extension included. */
    private static final int MAX_NAME_CHARS = 100;
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public record Quantization(float[] scales, int[] zeroPoints, int axis) {
    }

    /**
     * One dumped tensor. {@code file} is null when none was written, and {@code reason} says why.
     * {@code producer} is the node that wrote it, -1 for a graph input or variable, which no node writes.
     * {@code graphInput} and {@code graphOutput} are its positions among the subgraph's inputs and outputs, -1
     * when it is none.
     */
    public record Entry(int subgraph, Tensor tensor, String file, String reason, Quantization quantization,
                        int producer, String producerOp, int graphInput, int graphOutput) {
    }

    /**
     * @param preserving      the runtime's arenas with preserve_all_tensors, after the invokes
     * @param plain           the same without it
     * @param temporaries     kernel temporaries left out
     * @param bytesWritten    every file's bytes, headers and manifest included
     * @param dataBytes       the tensors' bytes among them
     * @param outputMismatch  null when every graph output equals the run's, else the first difference
     */
    public record Result(Path directory, List<Entry> entries, int files, int temporaries, long dataBytes,
                         long bytesWritten, MemoryInfo preserving, MemoryInfo plain, String outputMismatch) {

        public boolean outputsMatch() {
            return outputMismatch == null;
        }

        /** Native bytes that preserve_all_tensors adds, arenas and persistent arenas together. */
        public long extraTotalBytes() {
            return preserving.arenaBytes() + preserving.persistentBytes() - plain.arenaBytes() - plain.persistentBytes();
        }

        public long withoutFile() {
            return entries.stream().filter(e -> e.file() == null).count();
        }

        /** The figures, as the manifest opens and {@code run --json} reports them. */
        public ObjectNode summary() {
            ObjectNode node = MAPPER.createObjectNode();
            node.put("directory", directory.toString());
            node.put("tensors_listed", entries.size());
            node.put("files", files);
            node.put("tensors_without_file", withoutFile());
            node.put("kernel_temporaries_not_dumped", temporaries);
            node.put("data_bytes", dataBytes);
            node.put("bytes_written", bytesWritten);
            node.put("preserve_all_arena_bytes", preserving.arenaBytes());
            node.put("preserve_all_persistent_bytes", preserving.persistentBytes());
            node.put("normal_arena_bytes", plain.arenaBytes());
            node.put("normal_persistent_bytes", plain.persistentBytes());
            node.put("preserve_all_extra_total_bytes", extraTotalBytes());
            node.put("outputs_match_run", outputsMatch());
            if (outputMismatch != null) {
                node.put("output_mismatch", outputMismatch);
            }
            return node;
        }
    }

    private IntermediateDump() {
    }

    /**
     * Refuses a directory to dump into before anything runs: a path that is not a directory, or a non-empty
     * one unless {@code force}, as stale files would pass for the new dump's.
     */
    public static void checkDirectory(Path directory, boolean force) {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new IllegalArgumentException(directory + ": exists and is not a directory");
        }
        if (!force && Files.isDirectory(directory)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
                if (entries.iterator().hasNext()) {
                    throw new IllegalArgumentException(directory + ": is not empty; dump into a new or empty "
                            + "directory, or pass --force to replace an earlier dump there");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(directory + ": cannot list", e);
            }
        }
    }

    /**
     * Replays the run's invokes, with the seeds {@code seed}, {@code seed + 1}, ... as it did, and dumps what
     * the last one left.
     */
    public static Result write(NativeModel model, DifferentialRun.Result run, long seed, Path directory,
                               boolean force) {
        checkDirectory(directory, force);
        InterpreterSettings settings = run.settings();
        // The run's native-planned interpreter did the same invokes without the option, unless the run itself
        // preserved all tensors. Measured after the invokes: dynamic tensors and control flow may grow the
        // arenas during invoke.
        MemoryInfo plainMemory = settings.preserveAllTensors()
                ? replayedMemory(model, settings.withPreserveAllTensors(false), run.invokes(), seed)
                : run.reference();
        try (NativeInterpreter preserving = replay(model, settings.withPreserveAllTensors(true), run.invokes(), seed)) {
            prepareDirectory(directory, force);
            ObjectNode manifest = MAPPER.createObjectNode();
            manifest.put("model", model.path().toString());
            manifest.put("resolver", settings.resolverName());
            manifest.put("invokes", run.invokes());
            manifest.put("first_seed", seed);
            return new Writer(preserving, directory, manifest).write(plainMemory, run.outputs());
        } catch (IOException e) {
            throw new UncheckedIOException(directory + ": " + e.getMessage(), e);
        }
    }

    private static MemoryInfo replayedMemory(NativeModel model, InterpreterSettings settings, int invokes,
                                             long seed) {
        try (NativeInterpreter interpreter = replay(model, settings, invokes, seed)) {
            return interpreter.memoryInfo();
        }
    }

    /** A native-planned interpreter after the run's invokes; the caller closes it. */
    private static NativeInterpreter replay(NativeModel model, InterpreterSettings settings, int invokes, long seed) {
        NativeInterpreter interpreter = NativeInterpreter.build(model, settings);
        try {
            interpreter.allocateTensors();
            for (int i = 0; i < invokes; i++) {
                SeededInputs.feed(seed + i, interpreter);
                interpreter.invoke();
            }
            return interpreter;
        } catch (RuntimeException e) {
            interpreter.close();
            throw e;
        }
    }

    private static void prepareDirectory(Path directory, boolean force) throws IOException {
        Files.createDirectories(directory);
        if (force) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
                for (Path entry : entries) {
                    if (Files.isRegularFile(entry) && DUMP_FILE.matcher(entry.getFileName().toString()).matches()) {
                        Files.delete(entry);
                    }
                }
            }
        }
    }

    /** A tensor found in a subgraph, before it is written. */
    private record Found(int subgraph, Tensor tensor, TfLiteTensor nativeTensor, int producer, String producerOp) {
    }

    private static final class Writer {
        private final NativeInterpreter interpreter;
        private final Path directory;
        /** What the manifest says of the run it replays. */
        private final ObjectNode run;
        private final List<Entry> entries = new ArrayList<>();
        private int files;
        private int temporaries;
        private long dataBytes;
        private long bytesWritten;

        Writer(NativeInterpreter interpreter, Path directory, ObjectNode run) {
            this.interpreter = interpreter;
            this.directory = directory;
            this.run = run;
        }

        Result write(MemoryInfo plainMemory, byte[][] runOutputs) throws IOException {
            Interpreter live = interpreter.live();
            ReadableMemory readable = ReadableMemory.now();
            for (int s = 0; s < live.subgraphs_size(); s++) {
                subgraph(live.subgraph(s), s, readable);
            }
            String mismatch = compareOutputs(live, runOutputs);
            Result withoutManifest = new Result(directory, List.copyOf(entries), files, temporaries, dataBytes,
                    bytesWritten, interpreter.memoryInfo(), plainMemory, mismatch);
            // The manifest cannot state its own size: it is added to bytes_written after it is written.
            long manifestBytes = writeManifest(withoutManifest);
            return new Result(directory, withoutManifest.entries(), files, temporaries, dataBytes,
                    bytesWritten + manifestBytes, withoutManifest.preserving(), plainMemory, mismatch);
        }

        private void subgraph(Subgraph subgraph, int s, ReadableMemory readable) throws IOException {
            int[] plan = NativeTensors.ints(subgraph.execution_plan());
            Set<Integer> planned = new HashSet<>();
            Map<Integer, Integer> producer = new HashMap<>();
            for (int n : plan) {
                planned.add(n);
                for (int t : NativeTensors.ints(subgraph.node_and_registration(n).first().outputs())) {
                    producer.put(t, n);
                }
            }
            int[] inputs = NativeTensors.ints(subgraph.inputs());
            int[] outputs = NativeTensors.ints(subgraph.outputs());
            Set<Integer> dumped = new HashSet<>();
            Arrays.stream(inputs).forEach(dumped::add);
            Arrays.stream(outputs).forEach(dumped::add);
            for (int t : NativeTensors.ints(subgraph.variables())) {
                dumped.add(t);
            }
            dumped.addAll(producer.keySet());
            // A node a delegate took over stays in the node list but leaves the execution plan: its outputs
            // that no planned node writes live only in the delegate's own buffers.
            Set<Integer> delegated = new HashSet<>();
            Set<Integer> temporary = new HashSet<>();
            for (int n = 0; n < subgraph.nodes_size(); n++) {
                var node = subgraph.node_and_registration(n).first();
                for (int t : NativeTensors.ints(node.outputs())) {
                    if (!planned.contains(n) && !dumped.contains(t)) {
                        delegated.add(t);
                    }
                }
                for (int t : NativeTensors.ints(node.temporaries())) {
                    temporary.add(t);
                }
            }
            delegated.remove(-1);
            dumped.addAll(delegated);
            dumped.remove(-1);
            temporary.removeAll(dumped);
            temporaries += temporary.size();

            List<Found> found = new ArrayList<>();
            for (int t : dumped.stream().sorted().toList()) {
                TfLiteTensor nativeTensor = subgraph.tensor(t);
                Tensor tensor = GraphSnapshot.tensor(nativeTensor, t);
                if (tensor.allocation() == Allocation.MMAP_RO || tensor.allocation() == Allocation.PERSISTENT_RO) {
                    continue;
                }
                Integer by = producer.get(t);
                String op = by == null ? null : GetOpNameByRegistration(subgraph.node_and_registration(by).second());
                found.add(new Found(s, tensor, nativeTensor, by == null ? -1 : by, op));
            }
            Map<Integer, String> overlaps = overlaps(found);
            for (Found f : found) {
                String reason = delegated.contains(f.tensor().index())
                        ? "inside a delegated partition: the delegate computes it in its own buffers and TFLite's "
                        + "copy is never written"
                        : overlaps.getOrDefault(f.tensor().index(), whyNoFile(f, readable));
                String file = reason == null ? writeFile(f) : null;
                int t = f.tensor().index();
                entries.add(new Entry(s, f.tensor(), file, reason, quantization(f.nativeTensor()), f.producer(),
                        f.producerOp(), positionOf(t, inputs), positionOf(t, outputs)));
            }
        }

        private static int positionOf(int tensor, int[] list) {
            for (int i = 0; i < list.length; i++) {
                if (list[i] == tensor) {
                    return i;
                }
            }
            return -1;
        }

        /** Why a tensor gets no file, or null when it can have one. */
        private static String whyNoFile(Found f, ReadableMemory readable) {
            Tensor tensor = f.tensor();
            TensorType type = tensor.type() == null ? null : TensorType.byName(tensor.type());
            if (type == null) {
                return "unknown type " + tensor.type();
            }
            if (NpyFile.dtype(type) == null) {
                return NpyFile.noDtypeReason(type);
            }
            if (type.bytesFor(tensor.shape()) != tensor.bytes()) {
                return "its " + tensor.bytes() + " bytes do not match its shape " + Arrays.toString(tensor.shape())
                        + " of " + type;
            }
            if (tensor.allocation() == Allocation.CUSTOM) {
                // WHILE points its body's inputs at memory it owns elsewhere, which the loop rewrites after
                // their last use: the bytes there are a later tensor's.
                return "its memory is lent by another op (custom allocation, as WHILE does for its body's "
                        + "inputs) and rewritten after this tensor's last use: its bytes are not its own";
            }
            if (tensor.bytes() == 0) {
                return null;
            }
            long address = NativeTensors.dataAddress(f.nativeTensor());
            if (address == 0) {
                return "no memory after invoke";
            }
            if (!readable.holds(address, tensor.bytes())) {
                return String.format("its data pointer 0x%x is not in readable memory", address);
            }
            return null;
        }

        /**
         * Tensors whose memory overlaps another's. TFLite up to 2.15 still lets an output share its input's
         * memory under preserve_all_tensors (see TfliteRelease.sharingUnderPreserveAll), so one of the two
         * would hold the other's bytes; a release that does not share never gets here.
         */
        private static Map<Integer, String> overlaps(List<Found> found) {
            List<Found> placed = found.stream().filter(f -> f.tensor().bytes() > 0
                    && NativeTensors.dataAddress(f.nativeTensor()) != 0)
                    .sorted(Comparator.comparingLong(f -> NativeTensors.dataAddress(f.nativeTensor()))).toList();
            Map<Integer, String> reasons = new HashMap<>();
            Found reaching = null;
            for (Found f : placed) {
                long start = NativeTensors.dataAddress(f.nativeTensor());
                if (reaching != null && start < end(reaching)) {
                    reasons.put(f.tensor().index(), sharing(reaching));
                    reasons.putIfAbsent(reaching.tensor().index(), sharing(f));
                }
                if (reaching == null || end(f) > end(reaching)) {
                    reaching = f;
                }
            }
            return reasons;
        }

        private static long end(Found f) {
            return NativeTensors.dataAddress(f.nativeTensor()) + f.tensor().bytes();
        }

        private static String sharing(Found other) {
            return "shares memory with tensor " + other.tensor().index() + " '" + other.tensor().name()
                    + "': its bytes after invoke may be that tensor's";
        }

        private String writeFile(Found f) throws IOException {
            Tensor tensor = f.tensor();
            String file = fileName(f.subgraph(), tensor);
            String dtype = NpyFile.dtype(TensorType.byName(tensor.type()));
            ByteBuffer data = tensor.bytes() == 0 ? ByteBuffer.allocate(0)
                    : f.nativeTensor().data().raw().capacity(tensor.bytes()).limit(tensor.bytes()).asByteBuffer();
            bytesWritten += NpyFile.write(directory.resolve(file), dtype, tensor.shape(), data);
            dataBytes += tensor.bytes();
            files++;
            return file;
        }

        /** Unique by subgraph and tensor index; the name only helps a reader, made safe for any file system. */
        static String fileName(int subgraph, Tensor tensor) {
            String name = UNSAFE.matcher(tensor.name()).replaceAll("_");
            if (name.length() > MAX_NAME_CHARS) {
                name = name.substring(0, MAX_NAME_CHARS);
            }
            return String.format("sg%d_t%05d_%s.npy", subgraph, tensor.index(), name);
        }

        private static Quantization quantization(TfLiteTensor tensor) {
            TfLiteQuantization q = tensor.quantization();
            if (q == null || q.isNull() || q.type() != kTfLiteAffineQuantization || q.params() == null
                    || q.params().isNull()) {
                return null;
            }
            TfLiteAffineQuantization affine = new TfLiteAffineQuantization(q.params());
            float[] scales = new float[affine.scale() == null || affine.scale().isNull() ? 0 : affine.scale().size()];
            for (int i = 0; i < scales.length; i++) {
                scales[i] = affine.scale().data(i);
            }
            return new Quantization(scales, NativeTensors.ints(affine.zero_point()), affine.quantized_dimension());
        }

        /** The primary subgraph's outputs as read back from their files, against the run's. */
        private String compareOutputs(Interpreter live, byte[][] runOutputs) throws IOException {
            int[] outputs = NativeTensors.ints(live.subgraph(0).outputs());
            if (outputs.length != runOutputs.length) {
                return "the run has " + runOutputs.length + " outputs, the dump " + outputs.length;
            }
            for (int i = 0; i < outputs.length; i++) {
                int t = outputs[i];
                int position = i;
                Entry entry = entries.stream().filter(e -> e.subgraph() == 0 && e.graphOutput() == position)
                        .findFirst().orElse(null);
                byte[] dumped;
                if (entry != null && entry.file() != null) {
                    dumped = NpyFile.readData(directory.resolve(entry.file()));
                } else {
                    // No file to read back (a STRING output, say): the preserving interpreter's memory stands in.
                    try {
                        dumped = interpreter.readOutput(i);
                    } catch (IllegalStateException e) {
                        return "output " + i + " (tensor " + t + ") has neither a file nor memory to compare";
                    }
                }
                int at = Arrays.mismatch(runOutputs[i], dumped);
                if (at >= 0) {
                    return "output " + i + " (tensor " + t + ") differs from the run's first at byte " + at;
                }
            }
            return null;
        }

        private long writeManifest(Result result) throws IOException {
            ObjectNode root = run.deepCopy();
            root.setAll(result.summary());
            root.remove("bytes_written");
            root.put("byte_order", ByteOrder.nativeOrder().toString().toLowerCase());
            ArrayNode tensors = root.putArray("tensors");
            for (Entry e : result.entries()) {
                ObjectNode node = tensors.addObject();
                node.put("subgraph", e.subgraph());
                node.put("index", e.tensor().index());
                node.put("name", e.tensor().name());
                node.put("type", e.tensor().type());
                ArrayNode shape = node.putArray("shape");
                Arrays.stream(e.tensor().shape()).forEach(shape::add);
                node.put("bytes", e.tensor().bytes());
                node.put("allocation", e.tensor().allocation().jsonName());
                if (e.graphInput() >= 0) {
                    node.put("graph_input", e.graphInput());
                }
                if (e.graphOutput() >= 0) {
                    node.put("graph_output", e.graphOutput());
                }
                node.put("file", e.file());
                if (e.reason() != null) {
                    node.put("no_file_because", e.reason());
                }
                if (e.quantization() != null) {
                    ObjectNode q = node.putObject("quantization");
                    ArrayNode scales = q.putArray("scale");
                    for (float f : e.quantization().scales()) {
                        scales.add(f);
                    }
                    ArrayNode zeros = q.putArray("zero_point");
                    Arrays.stream(e.quantization().zeroPoints()).forEach(zeros::add);
                    q.put("quantized_dimension", e.quantization().axis());
                }
                if (e.producer() >= 0) {
                    node.put("producer_node", e.producer());
                    node.put("producer_op", e.producerOp());
                } else {
                    node.putNull("producer_node");
                }
            }
            Path manifest = directory.resolve(MANIFEST);
            MAPPER.writeValue(manifest.toFile(), root);
            return Files.size(manifest);
        }
    }
}
