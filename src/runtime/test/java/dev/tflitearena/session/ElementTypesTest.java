package dev.tflitearena.session;

import dev.tflitearena.graph.TensorType;
import dev.tflitearena.graph.tflite.Quantization;
import dev.tflitearena.models.DemoModel;
import dev.tflitearena.models.SampleModels;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every element type TFLite has a Java form for, written into an input and read back from an output through
 * a RESHAPE that TFLite runs (it copies bytes whatever their type), and the tensors' quantization.
 */
class ElementTypesTest {

    /** A value of each type's Java form, of six elements, and how to read it back from outputs. */
    private record Case(TensorType type, Object values, Function<Outputs, Object> read) {
    }

    private static final List<Case> CASES = List.of(
            new Case(TensorType.FLOAT32, new float[]{0, 1.5f, -2, 3.25e-3f, Float.MAX_VALUE, -0f}, o -> o.floats(0)),
            new Case(TensorType.FLOAT16, new float[]{0, 1.5f, -2, 65504, 0x1p-14f, 0x1p-24f}, o -> o.floats(0)),
            new Case(TensorType.BFLOAT16, new float[]{0, 1.5f, -2, 0x1p100f, 0x1p-100f, -0.0078125f}, o -> o.floats(0)),
            new Case(TensorType.FLOAT64, new double[]{0, 1.5, -2, Math.PI, Double.MIN_VALUE, 1e300}, o -> o.doubles(0)),
            new Case(TensorType.INT8, new byte[]{0, 1, -1, 127, -128, 42}, o -> o.bytes(0)),
            new Case(TensorType.UINT8, new byte[]{0, 1, (byte) 255, (byte) 128, 127, 42}, o -> o.bytes(0)),
            new Case(TensorType.INT16, new short[]{0, 1, -1, Short.MAX_VALUE, Short.MIN_VALUE, 1234}, o -> o.shorts(0)),
            new Case(TensorType.UINT16, new short[]{0, 1, (short) 65535, (short) 40000, 7, 1234}, o -> o.shorts(0)),
            new Case(TensorType.INT32, new int[]{0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 123456}, o -> o.ints(0)),
            new Case(TensorType.UINT32, new int[]{0, 1, -1, (int) 3_000_000_000L, 5, 123456}, o -> o.ints(0)),
            new Case(TensorType.INT64, new long[]{0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40}, o -> o.longs(0)),
            new Case(TensorType.UINT64, new long[]{0, 1, -1, Long.MIN_VALUE, 5, 1L << 40}, o -> o.longs(0)),
            new Case(TensorType.BOOL, new boolean[]{true, false, false, true, true, false}, o -> o.booleans(0)),
            new Case(TensorType.STRING, new String[]{"", "a", "tflite", "Grüße", "日本語", "the end"}, o -> o.strings(0)),
            new Case(TensorType.COMPLEX64, new float[]{1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6}, o -> o.floats(0)),
            new Case(TensorType.COMPLEX128, new double[]{1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6}, o -> o.doubles(0)));

    @Test
    void everyTypeRoundTripsThroughTflite() {
        for (Case c : CASES) {
            try (TfLiteModel model = TfLiteModel.load(SampleModels.reshape(c.type(), null, null));
                 Session session = model.newSession(SessionOptions.DEFAULT)) {
                assertEquals(c.type(), session.inputs().get(0).type());
                Outputs byIndex = session.run(c.values());
                assertArrayEqual(c.values(), c.read().apply(byIndex), c.type().toString());
                Outputs byName = session.run(Map.of("input", c.values()));
                assertArrayEqual(c.values(), c.read().apply(byName), c.type().toString());
                assertArrayEquals(new int[]{3, 2}, byName.infos().get(0).shape());
            }
        }
    }

    @Test
    void halfAndBfloat16AreWrittenAsTheirBitsInNativeOrder() {
        for (TensorType type : new TensorType[]{TensorType.FLOAT16, TensorType.BFLOAT16}) {
            try (TfLiteModel model = TfLiteModel.load(SampleModels.reshape(type, null, null));
                 Session session = model.newSession(SessionOptions.DEFAULT)) {
                session.run((Object) new float[]{1.5f, -2, 1, 0, 0, 0});
                ByteBuffer bits = session.inputValues(0);
                assertEquals(ByteOrder.nativeOrder(), bits.order());
                short[] expected = type == TensorType.FLOAT16 ? new short[]{0x3E00, (short) 0xC000, 0x3C00}
                        : new short[]{0x3FC0, (short) 0xC000, 0x3F80};
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], bits.getShort(i * 2), type + " value " + i);
                }
            }
        }
    }

    @Test
    void aValueOfAnotherFormIsRefusedNamingTheFormExpected() {
        try (TfLiteModel model = TfLiteModel.load(SampleModels.reshape(TensorType.INT16, null, null));
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            var e = assertThrows(IllegalArgumentException.class, () -> session.run((Object) new int[6]));
            assertTrue(e.getMessage().contains("input 0 'input' int16 [2, 3] (6 values, 12 bytes) got int[6]"),
                    e.getMessage());
            Outputs outputs = session.run((Object) new short[6]);
            var read = assertThrows(IllegalArgumentException.class, () -> outputs.ints(0));
            assertTrue(read.getMessage().contains("is not read as int[]: read it as short[]"), read.getMessage());
        }
        try (TfLiteModel model = TfLiteModel.load(SampleModels.reshape(TensorType.STRING, null, null));
             Session session = model.newSession(SessionOptions.DEFAULT)) {
            var e = assertThrows(IllegalArgumentException.class,
                    () -> session.run((Object) new String[]{"a", null, "c", "d", "e", "f"}));
            assertTrue(e.getMessage().contains("got a null string at 1"), e.getMessage());
        }
    }

    @Test
    void tensorInfoCarriesQuantizationPerTensorAndPerChannel() {
        Quantization perTensor = Quantization.of(0.5f, -3);
        Quantization perChannelIn = Quantization.perAxis(1, new float[]{0.1f, 0.2f, 0.3f}, new long[]{0, 1, 2});
        Quantization perChannelOut = Quantization.perAxis(0, new float[]{0.4f, 0.5f, 0.6f}, new long[]{3, 4, 5});
        try (TfLiteModel model = TfLiteModel.load(SampleModels.reshape(TensorType.INT8, perTensor, perChannelOut));
             TfLiteModel perChannel = TfLiteModel.load(SampleModels.reshape(TensorType.INT8, perChannelIn, null));
             Session session = model.newSession(SessionOptions.DEFAULT);
             Session other = perChannel.newSession(SessionOptions.DEFAULT)) {
            assertEquals(perTensor, session.inputs().get(0).quantization());
            assertEquals(perChannelOut, session.outputs().get(0).quantization());
            assertEquals(0, session.outputs().get(0).quantization().axis());
            assertEquals(perChannelIn, other.inputs().get(0).quantization());
            assertNull(other.outputs().get(0).quantization());
            assertTrue(session.inputs().get(0).toString().contains("scale 0.5 zero_point -3"),
                    session.inputs().get(0).toString());
        }
        // The int8 demo, as its converter-style builder quantized it: what TFLite reads, the input's own scale.
        try (TfLiteModel model = TfLiteModel.load(DemoModel.int8()); Session session = model.newSession(SessionOptions.DEFAULT)) {
            Quantization input = session.inputs().get(0).quantization();
            assertEquals(1, input.scales().length);
            assertTrue(input.scales()[0] > 0, input.toString());
        }
    }

    @Test
    void tensorInfosAreEqualByValue() {
        try (TfLiteModel model = TfLiteModel.load(SampleModels.reshape(TensorType.INT8, Quantization.of(0.5f, 1), null));
             Session first = model.newSession(SessionOptions.DEFAULT);
             Session second = model.newSession(SessionOptions.DEFAULT.withPlanner("tflite"))) {
            assertEquals(first.inputs(), second.inputs());
            assertEquals(first.inputs().get(0).hashCode(), second.inputs().get(0).hashCode());
            assertNotEquals(first.inputs().get(0), first.outputs().get(0));
            second.resizeInput(0, 2, 3);
            assertEquals(first.inputs(), second.inputs());
        }
    }

    @Test
    void halfPrecisionConvertsEveryValueBackToItself() {
        for (int bits = 0; bits < 0x10000; bits++) {
            short half = (short) bits;
            float value = ElementValues.fromHalf(half);
            if (!Float.isNaN(value)) {
                assertEquals(half, ElementValues.toHalf(value), "half 0x" + Integer.toHexString(bits));
            }
            float bfloat = Float.intBitsToFloat(bits << 16);
            if (!Float.isNaN(bfloat)) {
                assertEquals(half, ElementValues.toBfloat16(bfloat), "bfloat16 0x" + Integer.toHexString(bits));
            }
        }
        // Halfway between two halves, to the even one; past the largest, infinity.
        assertEquals(0x3C00, ElementValues.toHalf(1 + 0x1p-11f));
        assertEquals(0x3C02, ElementValues.toHalf(1 + 3 * 0x1p-11f));
        assertEquals(0x7C00, ElementValues.toHalf(65520));
        assertTrue(Float.isNaN(ElementValues.fromHalf(ElementValues.toHalf(Float.NaN))));
        assertEquals(0x3F80, ElementValues.toBfloat16(1 + 0x1p-8f));
        assertEquals(0x3F82, ElementValues.toBfloat16(1 + 3 * 0x1p-8f));
    }

    private static void assertArrayEqual(Object expected, Object actual, String what) {
        if (expected instanceof float[] e) {
            assertArrayEquals(e, (float[]) actual, what);
        } else if (expected instanceof double[] e) {
            assertArrayEquals(e, (double[]) actual, what);
        } else if (expected instanceof byte[] e) {
            assertArrayEquals(e, (byte[]) actual, what);
        } else if (expected instanceof short[] e) {
            assertArrayEquals(e, (short[]) actual, what);
        } else if (expected instanceof int[] e) {
            assertArrayEquals(e, (int[]) actual, what);
        } else if (expected instanceof long[] e) {
            assertArrayEquals(e, (long[]) actual, what);
        } else if (expected instanceof boolean[] e) {
            assertArrayEquals(e, (boolean[]) actual, what);
        } else {
            assertArrayEquals((Object[]) expected, (Object[]) actual, what);
        }
    }
}
