package dev.tflitearena.session;

import dev.tflitearena.TestModels;
import dev.tflitearena.plan.order.Order;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryOrderSessionTest {
    private static final Path MODEL = TestModels.named("pose_landmark_lite.tflite");

    @ParameterizedTest
    @ValueSource(strings = {"native", "tflite"})
    void aSessionInTheMemoryOrderGivesTheOutputsOfTheModelsOrder(String planner) {
        SessionOptions memory = SessionOptions.DEFAULT.withPlanner(planner).withOrder(Order.MEMORY);
        try (TfLiteModel model = TfLiteModel.load(MODEL);
             Session reference = model.newSession(SessionOptions.DEFAULT.withPlanner(planner));
             Session session = model.newSession(memory);
             Session sharing = model.newSession(memory.withSharing(true))) {
            float[] values = SessionTest.randomInput(session.inputs().get(0), 11);
            Outputs expected = reference.run((Object) values);
            Outputs got = session.run((Object) values);
            Outputs shared = sharing.run((Object) values);
            for (TensorInfo output : session.outputs()) {
                assertArrayEquals(expected.floats(output.index()), got.floats(output.index()), output.name());
                assertArrayEquals(expected.floats(output.index()), shared.floats(output.index()), output.name());
            }
            if (planner.equals("tflite")) {
                assertTrue(session.arenaBytes() < reference.arenaBytes(),
                        session.arenaBytes() + " against " + reference.arenaBytes());
            }
        }
    }

    @Test
    void theMemoryOrderNeedsTfliteKernels() {
        assertThrows(IllegalArgumentException.class,
                () -> SessionOptions.DEFAULT.withXnnpack(true).withOrder(Order.MEMORY));
        assertThrows(IllegalArgumentException.class,
                () -> SessionOptions.DEFAULT.withOrder(Order.MEMORY).withXnnpack(true));
    }
}
