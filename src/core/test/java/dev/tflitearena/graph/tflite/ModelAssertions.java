package dev.tflitearena.graph.tflite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Two models, or parts of them, that read alike: what the tests of the writers of this package check. */
final class ModelAssertions {
    private ModelAssertions() {
    }

    /** Every field the reader gives of the subgraphs' tensors and operators. */
    static void assertSameSubgraph(TfliteSubgraph x, TfliteSubgraph y, String what) {
        assertEquals(x.name(), y.name(), what);
        assertArrayEquals(x.inputs(), y.inputs(), what);
        assertArrayEquals(x.outputs(), y.outputs(), what);
        assertEquals(x.tensors().size(), y.tensors().size(), what);
        for (int t = 0; t < x.tensors().size(); t++) {
            TfliteTensor p = x.tensor(t);
            TfliteTensor q = y.tensor(t);
            String at = what + ", tensor " + t;
            assertEquals(p.name(), q.name(), at);
            assertEquals(p.type(), q.type(), at);
            assertArrayEquals(p.shape(), q.shape(), at);
            assertArrayEquals(p.shapeSignature(), q.shapeSignature(), at + ": an absent signature stays absent");
            assertEquals(p.buffer(), q.buffer(), at);
            assertEquals(p.dataBytes(), q.dataBytes(), at);
            assertEquals(p.variable(), q.variable(), at);
            assertEquals(p.sparse(), q.sparse(), at);
            assertEquals(p.quantization(), q.quantization(), at);
        }
        assertEquals(x.operators().size(), y.operators().size(), what);
        for (int o = 0; o < x.operators().size(); o++) {
            TfliteOperator p = x.operators().get(o);
            TfliteOperator q = y.operators().get(o);
            String at = what + ", operator " + o;
            assertEquals(p.op(), q.op(), at);
            assertEquals(p.version(), q.version(), at);
            assertArrayEquals(p.inputs(), q.inputs(), at);
            assertArrayEquals(p.outputs(), q.outputs(), at);
            assertArrayEquals(p.intermediates(), q.intermediates(), at);
            assertArrayEquals(p.subgraphs(), q.subgraphs(), at);
        }
    }
    /** A's metadata entries stand first in B, in A's order, with A's data. */
    static void assertSameMetadata(TfliteModel a, TfliteModel b, String what) {
        for (int i = 0; i < a.metadata().size(); i++) {
            assertEquals(a.metadata().get(i).name(), b.metadata().get(i).name(), what);
            assertArrayEquals(a.metadata().get(i).data(), b.metadata().get(i).data(), what);
        }
    }
}
