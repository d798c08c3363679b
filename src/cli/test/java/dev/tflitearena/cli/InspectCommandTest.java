package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.Quantization;
import dev.tflitearena.graph.tflite.TensorSpec;
import dev.tflitearena.graph.tflite.TfliteModelBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.WhileOptionsT;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InspectCommandTest {
    @TempDir
    Path temp;

    private static Cli.Result run(String... args) {
        String[] full = new String[args.length + 1];
        full[0] = "inspect";
        System.arraycopy(args, 0, full, 1, args.length);
        return Cli.run(full);
    }

    /** A float model, or its int8 version: per-axis int8 weights, int8 activations, one tensor renamed. */
    private Path model(String file, boolean int8) throws IOException {
        TfliteModelBuilder builder = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = builder.subgraph("main");
        TensorType activations = int8 ? TensorType.INT8 : TensorType.FLOAT32;
        Quantization q = int8 ? Quantization.of(0.05f, -128) : null;
        int in = main.tensor(TensorSpec.of("input", activations, 1, 16, 16, 8).withQuantization(q));
        int weights = int8
                ? main.constant(TensorSpec.of("weights", TensorType.INT8, 4, 1, 1, 8)
                        .withQuantization(Quantization.perAxis(0, new float[]{1, 1, 1, 1}, new long[4])), new byte[32])
                : main.constant("weights", TensorType.FLOAT32, new int[]{4, 1, 1, 8}, new byte[128]);
        int out = main.tensor(TensorSpec.of(int8 ? "conv_int8" : "conv", activations, 1, 16, 16, 4)
                .withQuantization(q));
        int state = main.tensor(TensorSpec.of("state, \"kept\"", TensorType.FLOAT32, 1, 4).asVariable());
        main.operator(BuiltinOperator.CONV_2D, int8 ? 3 : 1, new int[]{in, weights, -1}, new int[]{out}, null);
        main.inputs(in, state);
        main.outputs(out);
        return Files.write(temp.resolve(file), builder.build());
    }

    @Test
    void theTextListsTotalsAndTheLargestTensors() {
        String model = TestModels.named("face_detection_short_range.tflite").toString();
        Cli.Result r = run(model);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith(model + ": 1 subgraph, 250 tensors, 164 operators"), r.out());
        assertTrue(r.out().contains("top 20 of 250 tensors by bytes:"), r.out());
        assertTrue(r.out().contains("230 more tensors; --csv FILE or --json lists every one"), r.out());
        assertLine(r.out(), "0 18 458752 activation FLOAT32 1x64x64x28 conv2d_2");
        assertEquals("", r.err());

        Cli.Result three = run(model, "--top", "3");
        assertTrue(three.out().contains("top 3 of 250 tensors by bytes:"), three.out());
        assertTrue(three.out().contains("247 more tensors"), three.out());
    }

    @Test
    void theModelsInputsAndOutputsComeFirstWithTheirTypeAndShape() throws IOException {
        Path model = model("float.tflite", false);
        Cli.Result text = run(model.toString());
        assertEquals(0, text.status(), text.err());
        List<String> lines = text.out().lines().toList();
        assertEquals(List.of("tensor", "type", "shape", "name"), List.of(lines.get(2).strip().split(" +")));
        assertLine(lines.get(3), "input 0 FLOAT32 1x16x16x8 input");
        assertLine(lines.get(4), "input 3 FLOAT32 1x4 state, \"kept\"");
        assertLine(lines.get(5), "output 2 FLOAT32 1x16x16x4 conv");

        JsonNode json = run(model.toString(), "--json").json();
        assertEquals(2, json.get("inputs").size());
        JsonNode output = json.get("outputs").get(0);
        assertEquals(1, json.get("outputs").size());
        assertEquals("conv", output.get("name").asText());
        assertEquals(2, output.get("index").asInt());
        assertEquals("FLOAT32", output.get("type").asText());
        assertEquals("[1,16,16,4]", output.get("shape").toString());
    }

    @Test
    void theJsonHoldsEveryTensorLargestFirstAndTheTotals() throws IOException {
        Cli.Result r = run(TestModels.named("face_detection_short_range.tflite").toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        JsonNode tensors = json.get("tensors");
        assertEquals(250, tensors.size());
        long activations = 0;
        long constants = 0;
        long previous = Long.MAX_VALUE;
        for (JsonNode t : tensors) {
            long bytes = t.get("bytes").asLong();
            assertTrue(bytes <= previous, "sorted by size");
            previous = bytes;
            if (t.get("kind").asText().equals("constant")) {
                constants += bytes;
            } else {
                activations += bytes;
            }
        }
        JsonNode all = json.get("all");
        assertEquals(activations, all.get("activation_bytes").asLong());
        assertEquals(constants, all.get("constant_bytes").asLong());
        assertEquals(85, all.get("constants").asInt());
        assertEquals(165, all.get("activations").asInt());
        assertEquals(activations, json.get("subgraphs").get(0).get("activation_bytes").asLong());
        JsonNode input = null;
        for (JsonNode t : tensors) {
            if (t.get("name").asText().equals("input")) {
                input = t;
            }
        }
        assertEquals("FLOAT32", input.get("type").asText());
        assertEquals("[1,128,128,3]", input.get("shape").toString());
        assertEquals(196608, input.get("bytes").asLong());
        assertEquals(0, input.get("subgraph").asInt());
        assertFalse(input.has("shape_signature"));
    }

    @Test
    void theCsvHoldsEveryRowWithNamesQuotedAsRfc4180Says() throws IOException {
        Path csv = temp.resolve("tensors.csv");
        Cli.Result r = run(model("float.tflite", false).toString(), "--csv", csv.toString(), "--top", "1");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("every row written to " + csv), r.out());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(List.of(
                "subgraph,index,name,type,shape,bytes,kind",
                "0,0,input,FLOAT32,1x16x16x8,8192,activation",
                "0,2,conv,FLOAT32,1x16x16x4,4096,activation",
                "0,1,weights,FLOAT32,4x1x1x8,128,constant",
                "0,3,\"state, \"\"kept\"\"\",FLOAT32,1x4,16,variable"), lines);
        assertEquals(List.of("state, \"kept\""), csvFields(lines.get(4)).subList(2, 3));

        Cli.Result big = run(TestModels.named("pose_landmark_lite.tflite").toString(), "--csv", csv.toString());
        assertEquals(0, big.status(), big.err());
        assertEquals(1 + 492, Files.readAllLines(csv).size());
    }

    /** Asserts that some line of the text holds these cells, however the table aligned them. */
    private static void assertLine(String text, String cells) {
        boolean found = text.lines().map(line -> line.strip().replaceAll(" +", " ")).anyMatch(cells::equals);
        assertTrue(found, "no line '" + cells + "' in\n" + text);
    }

    /** Splits one RFC 4180 line. */
    private static List<String> csvFields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                field.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    @Test
    void aDiffOfAFloatModelAndItsInt8VersionShowsTheChangesAndBothTotals() throws IOException {
        Path floats = model("float.tflite", false);
        Path ints = model("int8.tflite", true);
        Cli.Result r = run(floats.toString(), "--diff", ints.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        JsonNode all = json.get("all");
        assertEquals(8192 + 4096 + 16, all.get("activation_bytes").get("a").asLong());
        assertEquals(2048 + 1024 + 16, all.get("activation_bytes").get("b").asLong());
        assertEquals(-(6144 + 3072), all.get("activation_bytes").get("difference").asLong());
        assertEquals(128, all.get("constant_bytes").get("a").asLong());
        assertEquals(32, all.get("constant_bytes").get("b").asLong());
        assertEquals(-96, all.get("constant_bytes").get("difference").asLong());
        assertEquals(3, json.get("matched").asInt());
        assertEquals(2, json.get("changed").asInt());
        assertEquals(1, json.get("unchanged").asInt());
        assertEquals(1, json.get("added").asInt());
        assertEquals(1, json.get("removed").asInt());
        JsonNode changes = json.get("changes");
        assertEquals(4, changes.size());
        assertEquals("input", changes.get(0).get("name").asText());
        assertEquals("changed", changes.get(0).get("status").asText());
        assertEquals(-6144, changes.get(0).get("difference").asLong());
        assertEquals("INT8", changes.get(0).get("b").get("type").asText());
        assertEquals("removed", changes.get(1).get("status").asText());
        assertEquals("conv", changes.get(1).get("name").asText());
        assertTrue(changes.get(1).get("b").isNull());
        assertEquals("added", changes.get(2).get("status").asText());
        assertEquals("conv_int8", changes.get(2).get("name").asText());
        assertEquals("weights", changes.get(3).get("name").asText());

        Cli.Result text = run(floats.toString(), "--diff", ints.toString(), "--top", "2");
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().contains("tensors matched by subgraph and name: 3 (2 changed, 1 unchanged); "
                + "1 added (in B only); 1 removed (in A only)"), text.out());
        assertTrue(text.out().contains("top 2 of 4 changes by bytes:"), text.out());
        assertLine(text.out(), "0 changed 8192 2048 -6144 FLOAT32 -> INT8 1x16x16x8 input");
        assertTrue(text.out().contains("2 more changes"), text.out());
        assertLine(text.out(), "0 activations 12304 3088 -9216");
        assertLine(text.out(), "0 constants 128 32 -96");

        Path csv = temp.resolve("diff.csv");
        assertEquals(0, run(floats.toString(), "--diff", ints.toString(), "--csv", csv.toString()).status());
        List<String> lines = Files.readAllLines(csv);
        assertEquals("subgraph,name,status,type_a,type_b,shape_a,shape_b,bytes_a,bytes_b,difference,kind_a,kind_b",
                lines.get(0));
        assertEquals(6, lines.size(), "every tensor of either model");
        assertEquals("0,\"state, \"\"kept\"\"\",unchanged,FLOAT32,FLOAT32,1x4,1x4,16,16,0,variable,variable",
                lines.get(5));
    }

    @Test
    void twoModelsOfOneArchitectureMatchTensorForTensor() throws IOException {
        Cli.Result r = run(TestModels.named("object_detection_3d_camera.tflite").toString(), "--diff",
                TestModels.named("object_detection_3d_cup.tflite").toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode json = r.json();
        // The converter fused a few batch norms differently in the two, so ten tensors carry other names.
        assertEquals(248, json.get("matched").asInt());
        assertEquals(0, json.get("changed").asInt());
        assertEquals(10, json.get("added").asInt());
        assertEquals(10, json.get("removed").asInt());
        assertEquals(0, json.get("all").get("activation_bytes").get("difference").asLong());
    }

    @Test
    void everySubgraphOfAControlFlowModelIsCounted() throws IOException {
        TfliteModelBuilder builder = new TfliteModelBuilder();
        TfliteModelBuilder.SubgraphBuilder main = builder.subgraph("main");
        TfliteModelBuilder.SubgraphBuilder body = builder.subgraph("body");
        TfliteModelBuilder.SubgraphBuilder cond = builder.subgraph("cond");
        int x = main.tensor("x", TensorType.FLOAT32, 4);
        int y = main.tensor("y", TensorType.FLOAT32, 4);
        WhileOptionsT loop = new WhileOptionsT();
        loop.setBodySubgraphIndex(1);
        loop.setCondSubgraphIndex(2);
        main.operator(BuiltinOperator.WHILE, 1, new int[]{x}, new int[]{y},
                TfliteModelBuilder.options(BuiltinOptions.WhileOptions, loop));
        body.tensor("bx", TensorType.FLOAT32, 4);
        body.constant("two", TensorType.FLOAT32, new int[]{1}, TfliteModelBuilder.littleEndian(2f));
        cond.tensor("cx", TensorType.FLOAT32, 4);
        cond.tensor("label", TensorType.STRING, 1);
        Path file = Files.write(temp.resolve("loop.tflite"), builder.build());

        Cli.Result r = run(file.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith(file + ": 3 subgraphs, 6 tensors, 1 operators"), r.out());
        assertLine(r.out(), "all 6 5 64 1 4");
        assertLine(r.out(), "1 2 1 16 1 4 body");
        assertTrue(r.out().contains("1 tensor of unknown size"), r.out());
        Cli.Result json = run(file.toString(), "--json");
        JsonNode subgraphs = json.json().get("subgraphs");
        assertEquals(3, subgraphs.size());
        assertEquals("body", subgraphs.get(1).get("name").asText());
        assertEquals(4, subgraphs.get(1).get("constant_bytes").asLong());
        JsonNode label = json.json().get("tensors").get(5);
        assertEquals("label", label.get("name").asText());
        assertTrue(label.get("bytes").isNull());
    }

    @Test
    void aCorruptFileAMissingOneAndABadTopAreErrorsWithStatus2() throws IOException {
        byte[] bytes = Files.readAllBytes(TestModels.named("hand_landmark_lite.tflite"));
        Path truncated = Files.write(temp.resolve("truncated.tflite"), Arrays.copyOf(bytes, 5000));
        Cli.Result cut = run(truncated.toString());
        assertEquals(Main.EXIT_ERROR, cut.status());
        assertTrue(cut.err().startsWith("tflite-arena inspect: " + truncated + ": "), cut.err());
        assertEquals("", cut.out());

        Cli.Result diff = run(TestModels.named("hand_landmark_lite.tflite").toString(), "--diff", truncated.toString());
        assertEquals(Main.EXIT_ERROR, diff.status());
        assertTrue(diff.err().contains(truncated + ": "), diff.err());

        Path missing = temp.resolve("missing.tflite");
        Cli.Result none = run(missing.toString());
        assertEquals(Main.EXIT_ERROR, none.status());
        assertTrue(none.err().contains(missing + ": no such readable file"), none.err());

        Cli.Result top = run(TestModels.named("hand_landmark_lite.tflite").toString(), "--top", "-1");
        assertEquals(Main.EXIT_ERROR, top.status());
        assertTrue(top.err().contains("--top must not be negative, got -1"), top.err());
    }
}
