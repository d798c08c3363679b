package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.options.Output;
import dev.tflitearena.cli.output.Json;
import dev.tflitearena.cli.output.TextTable;
import dev.tflitearena.cli.output.WritablePath;
import dev.tflitearena.graph.tflite.ModelDiff;
import dev.tflitearena.graph.tflite.ModelDiff.Status;
import dev.tflitearena.graph.tflite.SubgraphTotals;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.graph.tflite.TfliteModel;
import dev.tflitearena.graph.tflite.TfliteSubgraph;
import dev.tflitearena.graph.tflite.TfliteTensor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;

@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Lists a model's tensors from the .tflite file alone, without the native runtime: its inputs "
                + "and outputs (those of subgraph 0) with their name, type and shape; per tensor "
                + "its subgraph, index, name, type, shape, bytes and kind (activation, constant or variable), "
                + "largest first, and the naive totals of activations (every tensor without constant data) and of "
                + "constants, per subgraph and in all. Naive: no memory is shared, no kernel temporary counted. "
                + "With --diff, compares two models tensor by tensor.")
final class InspectCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MODEL.tflite")
    Path model;

    @Option(names = "--csv", paramLabel = "FILE",
            description = "Also write every row to this CSV file: the tensors, or with --diff the comparison.")
    Path csv;

    @Option(names = "--top", defaultValue = "20", paramLabel = "N",
            description = "Rows the text shows (default: ${DEFAULT-VALUE}); --csv and --json hold them all.")
    int top;

    @Option(names = "--diff", paramLabel = "OTHER.tflite",
            description = "Compare with another model (say, the int8 version of a float model): tensors matched "
                    + "by subgraph and name, the largest byte changes, both models' totals.")
    Path other;

    @Mixin
    Output output;

    @Override
    public Integer call() throws IOException {
        if (top < 0) {
            throw new IllegalArgumentException("--top must not be negative, got " + top);
        }
        if (csv != null) {
            WritablePath.checkFile(csv);
        }
        TfliteModel a = TfliteFile.read(model);
        if (other == null) {
            List<Row> rows = bySize(a);
            List<SubgraphTotals> totals = SubgraphTotals.of(a);
            if (csv != null) {
                writeCsv(tensorCsv(rows));
            }
            output.print(() -> toJson(a, rows, totals), out -> printText(out, a, rows, totals));
        } else {
            ModelDiff diff = ModelDiff.of(a, TfliteFile.read(other));
            if (csv != null) {
                writeCsv(diffCsv(diff));
            }
            output.print(() -> diffJson(diff), out -> printDiff(out, diff));
        }
        return 0;
    }

    /** A tensor and its subgraph. */
    private record Row(int subgraph, TfliteTensor tensor) {
    }

    /** The tensor an input or output of the model is. */
    private record Port(String role, TfliteTensor tensor) {
    }

    /** The model's inputs, then its outputs: those of subgraph 0, which the interpreter runs; -1 (none) left out. */
    private static List<Port> ports(TfliteModel m) {
        List<Port> ports = new ArrayList<>();
        if (m.subgraphs().isEmpty()) {
            return ports;
        }
        TfliteSubgraph main = m.subgraph(0);
        Arrays.stream(main.inputs()).filter(i -> i >= 0).forEach(i -> ports.add(new Port("input", main.tensor(i))));
        Arrays.stream(main.outputs()).filter(i -> i >= 0).forEach(i -> ports.add(new Port("output", main.tensor(i))));
        return ports;
    }

    /** Every tensor of every subgraph, largest first, those of unknown size last; ties in file order. */
    private static List<Row> bySize(TfliteModel m) {
        List<Row> rows = new ArrayList<>();
        for (TfliteSubgraph s : m.subgraphs()) {
            for (TfliteTensor t : s.tensors()) {
                rows.add(new Row(s.index(), t));
            }
        }
        rows.sort(Comparator.comparingLong((Row r) -> -r.tensor().bytes()));
        return rows;
    }

    private ObjectNode toJson(TfliteModel m, List<Row> rows, List<SubgraphTotals> totals) {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        ArrayNode inputs = root.putArray("inputs");
        ArrayNode outputs = root.putArray("outputs");
        for (Port p : ports(m)) {
            ObjectNode j = (p.role().equals("input") ? inputs : outputs).addObject();
            j.put("index", p.tensor().index());
            putTensor(j, p.tensor());
        }
        ArrayNode subgraphs = root.putArray("subgraphs");
        for (SubgraphTotals t : totals) {
            ObjectNode s = subgraphs.addObject();
            s.put("index", t.subgraph());
            s.put("name", t.name());
            putTotals(s, t);
        }
        putTotals(root.putObject("all"), SubgraphTotals.sum(totals));
        ArrayNode tensors = root.putArray("tensors");
        for (Row r : rows) {
            ObjectNode j = tensors.addObject();
            j.put("subgraph", r.subgraph());
            j.put("index", r.tensor().index());
            putTensor(j, r.tensor());
        }
        return root;
    }

    private static void putTotals(ObjectNode node, SubgraphTotals t) {
        node.put("tensors", t.tensors());
        node.put("operators", t.operators());
        node.put("activations", t.activations());
        node.put("activation_bytes", t.activationBytes());
        node.put("constants", t.constants());
        node.put("constant_bytes", t.constantBytes());
        node.put("tensors_of_unknown_size", t.unsized());
    }

    private static void putTensor(ObjectNode j, TfliteTensor t) {
        j.put("name", t.name());
        j.put("type", t.typeName());
        Json.putInts(j, "shape", t.shape());
        if (t.shapeSignature() != null) {
            Json.putInts(j, "shape_signature", t.shapeSignature());
        }
        if (t.bytes() < 0) {
            j.putNull("bytes");
        } else {
            j.put("bytes", t.bytes());
        }
        j.put("kind", t.kind());
    }

    private void printText(PrintWriter out, TfliteModel m, List<Row> rows, List<SubgraphTotals> totals) {
        SubgraphTotals all = SubgraphTotals.sum(totals);
        out.printf("%s: %d subgraph%s, %d tensors, %d operators%n", model, totals.size(),
                totals.size() == 1 ? "" : "s", all.tensors(), all.operators());
        out.println();
        TextTable ports = new TextTable("", "tensor", "type", "shape", "name").leftAlign(0).leftAlign(2).leftAlign(3)
                .leftAlign(4);
        for (Port p : ports(m)) {
            ports.add(p.role(), p.tensor().index(), p.tensor().typeName(), shape(p.tensor().shape()), p.tensor().name());
        }
        ports.print(out);
        out.println();
        TextTable table = new TextTable("subgraph", "tensors", "activations", "activation_bytes", "constants",
                "constant_bytes", "name").leftAlign(6);
        for (SubgraphTotals t : totals) {
            table.add(t.subgraph(), t.tensors(), t.activations(), t.activationBytes(), t.constants(),
                    t.constantBytes(), t.name());
        }
        if (totals.size() > 1) {
            table.add("all", all.tensors(), all.activations(), all.activationBytes(), all.constants(),
                    all.constantBytes(), "");
        }
        table.print(out);
        if (all.unsized() > 0) {
            out.printf("%d tensor%s of unknown size (STRING, RESOURCE, VARIANT or an unknown type) not counted%n",
                    all.unsized(), all.unsized() == 1 ? "" : "s");
        }
        out.println();
        int shown = Math.min(top, rows.size());
        out.printf("top %d of %d tensors by bytes:%n", shown, rows.size());
        TextTable tensors = new TextTable("subgraph", "tensor", "bytes", "kind", "type", "shape", "name")
                .leftAlign(3).leftAlign(4).leftAlign(5).leftAlign(6);
        for (Row r : rows.subList(0, shown)) {
            TfliteTensor t = r.tensor();
            tensors.add(r.subgraph(), t.index(), TextTable.orDash(t.bytes()), t.kind(), t.typeName(), shape(t.shape()),
                    t.name());
        }
        tensors.print(out);
        printMore(out, rows.size() - shown, "tensor");
    }

    private void printMore(PrintWriter out, int more, String what) {
        if (more > 0) {
            out.printf("%d more %s%s; --csv FILE or --json lists every one%n", more, what, more == 1 ? "" : "s");
        }
        if (csv != null) {
            out.printf("every row written to %s%n", csv);
        }
    }

    private static List<List<String>> tensorCsv(List<Row> rows) {
        List<List<String>> lines = new ArrayList<>();
        lines.add(List.of("subgraph", "index", "name", "type", "shape", "bytes", "kind"));
        for (Row r : rows) {
            TfliteTensor t = r.tensor();
            lines.add(List.of(String.valueOf(r.subgraph()), String.valueOf(t.index()), t.name(), t.typeName(),
                    shape(t.shape()), t.bytes() < 0 ? "" : String.valueOf(t.bytes()), t.kind()));
        }
        return lines;
    }

    private ObjectNode diffJson(ModelDiff d) {
        ObjectNode root = Json.object();
        root.put("a", model.toString());
        root.put("b", other.toString());
        ArrayNode subgraphs = root.putArray("subgraphs");
        for (int s = 0; s < d.subgraphs(); s++) {
            ObjectNode j = subgraphs.addObject();
            j.put("index", s);
            putCompared(j, d.a(s), d.b(s));
        }
        putCompared(root.putObject("all"), SubgraphTotals.sum(d.totalsA()), SubgraphTotals.sum(d.totalsB()));
        root.put("matched", d.count(Status.CHANGED) + d.count(Status.UNCHANGED));
        root.put("changed", d.count(Status.CHANGED));
        root.put("unchanged", d.count(Status.UNCHANGED));
        root.put("added", d.count(Status.ADDED));
        root.put("removed", d.count(Status.REMOVED));
        ArrayNode changes = root.putArray("changes");
        for (ModelDiff.Change c : d.changes()) {
            ObjectNode j = changes.addObject();
            j.put("subgraph", c.subgraph());
            j.put("name", c.name());
            j.put("status", c.status().label());
            putSide(j, "a", c.a());
            putSide(j, "b", c.b());
            j.put("difference", c.difference());
        }
        putAbd(root.putObject("buffers"), d.buffersA(), d.buffersB());
        ArrayNode metadata = root.putArray("metadata");
        for (ModelDiff.MetadataChange m : d.metadata()) {
            ObjectNode j = metadata.addObject();
            j.put("name", m.name());
            j.put("status", m.status().label());
            putMetadataSide(j, "a", m.a());
            putMetadataSide(j, "b", m.b());
        }
        return root;
    }

    private static void putMetadataSide(ObjectNode j, String side, TfliteModel.Metadata m) {
        if (m == null) {
            j.putNull("bytes_" + side);
        } else {
            j.put("bytes_" + side, m.data().length);
        }
    }

    /** The buffer counts and every metadata entry: a plan baked into a model adds an entry and its buffer. */
    private static void printMetadataDiff(PrintWriter out, ModelDiff d) {
        out.printf("buffers: %d in A, %d in B%n", d.buffersA(), d.buffersB());
        long inA = d.metadata().stream().filter(m -> m.a() != null).count();
        long inB = d.metadata().stream().filter(m -> m.b() != null).count();
        out.printf("metadata: %d entries in A, %d in B%n", inA, inB);
        for (ModelDiff.MetadataChange m : d.metadata()) {
            out.printf("  %s: %s (%s)%n", m.name(), m.status().label(), m.a() == null ? m.b().data().length + " bytes"
                    : m.b() == null ? m.a().data().length + " bytes" : m.a().data().length + " -> " + m.b().data().length
                    + " bytes");
        }
    }

    private static void putCompared(ObjectNode j, SubgraphTotals a, SubgraphTotals b) {
        putAbd(j.putObject("activation_bytes"), a.activationBytes(), b.activationBytes());
        putAbd(j.putObject("constant_bytes"), a.constantBytes(), b.constantBytes());
    }

    private static void putAbd(ObjectNode j, long a, long b) {
        j.put("a", a);
        j.put("b", b);
        j.put("difference", b - a);
    }

    private static void putSide(ObjectNode j, String field, TfliteTensor t) {
        if (t == null) {
            j.putNull(field);
        } else {
            ObjectNode side = j.putObject(field);
            side.put("index", t.index());
            putTensor(side, t);
        }
    }

    private void printDiff(PrintWriter out, ModelDiff d) {
        out.printf("A: %s (%d tensors)%n", model, SubgraphTotals.sum(d.totalsA()).tensors());
        out.printf("B: %s (%d tensors)%n", other, SubgraphTotals.sum(d.totalsB()).tensors());
        out.println();
        TextTable totals = new TextTable("subgraph", "bytes", "A", "B", "difference").leftAlign(1);
        for (int s = 0; s < d.subgraphs(); s++) {
            addCompared(totals, String.valueOf(s), d.a(s), d.b(s));
        }
        if (d.subgraphs() > 1) {
            addCompared(totals, "all", SubgraphTotals.sum(d.totalsA()), SubgraphTotals.sum(d.totalsB()));
        }
        totals.print(out);
        out.println();
        out.printf("tensors matched by subgraph and name: %d (%d changed, %d unchanged); %d added (in B only); "
                        + "%d removed (in A only)%n", d.count(Status.CHANGED) + d.count(Status.UNCHANGED), d.count(Status.CHANGED),
                d.count(Status.UNCHANGED), d.count(Status.ADDED), d.count(Status.REMOVED));
        List<ModelDiff.Change> changes = d.changes();
        int shown = Math.min(top, changes.size());
        out.println();
        out.printf("top %d of %d changes by bytes:%n", shown, changes.size());
        TextTable table = new TextTable("subgraph", "change", "bytes_a", "bytes_b", "difference", "type", "shape",
                "name").leftAlign(1).leftAlign(5).leftAlign(6).leftAlign(7);
        for (ModelDiff.Change c : changes.subList(0, shown)) {
            table.add(c.subgraph(), c.status().label(), c.a() == null ? "-" : TextTable.orDash(c.a().bytes()),
                    c.b() == null ? "-" : TextTable.orDash(c.b().bytes()), signed(c.difference()),
                    either(c, t -> t.typeName()), either(c, t -> shape(t.shape())), c.name());
        }
        table.print(out);
        printMore(out, changes.size() - shown, "change");
        out.println();
        printMetadataDiff(out, d);
    }

    private static void addCompared(TextTable table, String subgraph, SubgraphTotals a, SubgraphTotals b) {
        table.add(subgraph, "activations", a.activationBytes(), b.activationBytes(),
                signed(b.activationBytes() - a.activationBytes()));
        table.add(subgraph, "constants", a.constantBytes(), b.constantBytes(),
                signed(b.constantBytes() - a.constantBytes()));
    }

    /** The value on the side that has the tensor, or "a -> b" when both have it and it differs. */
    private static String either(ModelDiff.Change c, Function<TfliteTensor, String> value) {
        if (c.a() == null || c.b() == null) {
            return value.apply(c.a() == null ? c.b() : c.a());
        }
        String a = value.apply(c.a());
        String b = value.apply(c.b());
        return a.equals(b) ? a : a + " -> " + b;
    }

    private static String signed(long value) {
        return value > 0 ? "+" + value : Long.toString(value);
    }

    private static List<List<String>> diffCsv(ModelDiff d) {
        List<List<String>> lines = new ArrayList<>();
        lines.add(List.of("subgraph", "name", "status", "type_a", "type_b", "shape_a", "shape_b", "bytes_a", "bytes_b",
                "difference", "kind_a", "kind_b"));
        for (ModelDiff.Change c : d.rows()) {
            TfliteTensor a = c.a();
            TfliteTensor b = c.b();
            lines.add(List.of(String.valueOf(c.subgraph()), c.name(), c.status().label(),
                    a == null ? "" : a.typeName(), b == null ? "" : b.typeName(),
                    a == null ? "" : shape(a.shape()), b == null ? "" : shape(b.shape()),
                    a == null || a.bytes() < 0 ? "" : String.valueOf(a.bytes()),
                    b == null || b.bytes() < 0 ? "" : String.valueOf(b.bytes()),
                    String.valueOf(c.difference()), a == null ? "" : a.kind(), b == null ? "" : b.kind()));
        }
        return lines;
    }

    /** "1x128x128x3"; "scalar" for rank 0. */
    private static String shape(int[] shape) {
        if (shape.length == 0) {
            return "scalar";
        }
        StringBuilder b = new StringBuilder();
        for (int d : shape) {
            b.append(b.length() == 0 ? "" : "x").append(d);
        }
        return b.toString();
    }

    private void writeCsv(List<List<String>> lines) {
        try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            for (List<String> line : lines) {
                w.write(line.stream().map(InspectCommand::csvField).collect(Collectors.joining(",")));
                w.write("\n");
            }
        } catch (IOException e) {
            throw WritablePath.failure(csv, e);
        }
    }

    /** RFC 4180: a field holding a comma, a quote or a line break goes in quotes, its quotes doubled. */
    static String csvField(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }
}
