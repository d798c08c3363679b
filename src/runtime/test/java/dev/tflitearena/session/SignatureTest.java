package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A model's signatures: their keys, and runs by key under the signature's names, through TFLite's SignatureRunner. */
class SignatureTest {

    @ParameterizedTest
    @ValueSource(strings = {"native", "tflite"})
    void eachSignatureRunsByKeyUnderItsOwnNames(String planner) {
        try (TfLiteModel model = TfLiteModel.load(SampleModels.addAndMultiplySignatures());
             Session session = model.newSession(SessionOptions.DEFAULT.withPlanner(planner))) {
            assertEquals(List.of("add", "multiply"), session.signatureKeys());
            assertEquals(List.of("x", "y"), session.signatureInputs("add").stream().map(TensorInfo::name).toList());
            assertEquals(List.of("product"),
                    session.signatureOutputs("multiply").stream().map(TensorInfo::name).toList());
            assertArrayEquals(new int[]{2, 2}, session.signatureInputs("multiply").get(0).shape());

            Outputs sum = session.runSignature("add", Map.of("x", new float[]{1, 2, 3, 4}, "y", new float[]{10, 20, 30, 40}));
            assertArrayEquals(new float[]{11, 22, 33, 44}, sum.floats("sum"));
            Outputs product = session.runSignature("multiply",
                    Map.of("a", new float[]{1, 2, 3, 4}, "b", new float[]{2, 2, 0.5f, -1}));
            assertArrayEquals(new float[]{2, 4, 1.5f, -4}, product.floats("product"));
            assertEquals("product", product.infos().get(0).name());
            // The primary subgraph is the first signature's: a plain run gives the same sum.
            assertArrayEquals(new float[]{11, 22, 33, 44},
                    session.run(new float[]{1, 2, 3, 4}, new float[]{10, 20, 30, 40}).floats(0));
        }
    }

    @Test
    void errorsNameTheValidKeysAndNames() {
        try (TfLiteModel model = TfLiteModel.load(SampleModels.addAndMultiplySignatures());
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            var key = assertThrows(IllegalArgumentException.class, () -> session.runSignature("divide", Map.of()));
            assertTrue(key.getMessage().contains("no signature 'divide'; the model's signatures are [add, multiply]"),
                    key.getMessage());
            var input = assertThrows(IllegalArgumentException.class,
                    () -> session.runSignature("add", Map.of("x", new float[4], "z", new float[4])));
            assertTrue(input.getMessage().contains("signature 'add': inputs unknown [z], missing [y]")
                    && input.getMessage().contains("'x' float32 [4]"), input.getMessage());
            var output = assertThrows(IllegalArgumentException.class, () -> session.runSignature("add",
                    Map.of("x", new float[4], "y", new float[4]), Set.of("total")));
            assertTrue(output.getMessage().contains("outputs unknown [total]")
                    && output.getMessage().contains("'sum' float32 [4]"), output.getMessage());
            var read = assertThrows(IllegalArgumentException.class, () -> session.runSignature("add",
                    Map.of("x", new float[4], "y", new float[4])).floats("add/sum"));
            assertTrue(read.getMessage().contains("no output named 'add/sum' in this run; it read [0 'sum'"),
                    read.getMessage());
        }
    }

    @Test
    void aPoolRunsSignaturesAndARealModelWithoutAnyHasNoKeys() throws Exception {
        try (TfLiteModel model = TfLiteModel.load(SampleModels.addAndMultiplySignatures());
             SessionPool pool = model.newPool(SessionOptions.DEFAULT, 2, Duration.ofSeconds(5))) {
            assertArrayEquals(new float[]{4, 9, 16, 25}, pool.runSignature("multiply",
                    Map.of("a", new float[]{2, 3, 4, 5}, "b", new float[]{2, 3, 4, 5})).floats("product"));
            Outputs sum = pool.run(Map.of("add/x", new float[]{1, 1, 1, 1}, "add/y", new float[]{1, 2, 3, 4}),
                    Set.of("add/sum"));
            assertArrayEquals(new float[]{2, 3, 4, 5}, sum.floats("add/sum"));
        }
        try (TfLiteModel model = TfLiteModel.load(TestModels.named("face_detection_short_range.tflite"));
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            assertEquals(List.of(), session.signatureKeys());
            var e = assertThrows(IllegalArgumentException.class, () -> session.signatureInputs("serving_default"));
            assertTrue(e.getMessage().contains("the model's signatures are []"), e.getMessage());
        }
    }
}
