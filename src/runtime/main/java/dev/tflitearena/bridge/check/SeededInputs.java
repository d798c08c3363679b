package dev.tflitearena.bridge.check;

import dev.tflitearena.bridge.NativeInterpreter;
import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.graph.Tensor;
import dev.tflitearena.graph.TensorType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/**
 * Reproducible, non-trivial input data: floats uniform in [-1, 1), integers small enough to be valid
 * indices, booleans and 8-bit values random. The same seed and tensor give the same bytes.
 */
public final class SeededInputs {
    private static final int INDEX_RANGE = 4;

    private SeededInputs() {
    }

    /**
     * Writes the same seeded data into every graph input of each interpreter, all built from one model: what
     * makes their outputs comparable byte for byte.
     */
    public static void feed(long seed, NativeInterpreter... interpreters) {
        for (int input = 0; input < interpreters[0].inputCount(); input++) {
            byte[] data = of(interpreters[0].input(input), seed);
            for (NativeInterpreter interpreter : interpreters) {
                interpreter.writeInput(input, data);
            }
        }
    }

    public static byte[] of(Tensor tensor, long seed) {
        if (tensor.bytes() > Integer.MAX_VALUE - 8) {
            throw new NativeException("input tensor " + tensor.index() + " '" + tensor.name() + "' has "
                    + tensor.bytes() + " bytes, more than seeded inputs are made for (a Java array)");
        }
        return of(tensor.index(), tensor.bytes(), tensor.type() == null ? null : TensorType.byName(tensor.type()),
                seed);
    }

    /** The data of a tensor known by index, bytes and type (null: random bytes), as {@link #of(Tensor, long)}. */
    public static byte[] of(int index, long bytes, TensorType tensorType, long seed) {
        Random random = new Random(seed * 31 + index);
        ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder());
        TensorType type = tensorType == null ? TensorType.UINT8 : tensorType;
        while (data.hasRemaining()) {
            switch (type) {
                case FLOAT32 -> data.putFloat(random.nextFloat() * 2 - 1);
                case FLOAT64 -> data.putDouble(random.nextDouble() * 2 - 1);
                case FLOAT16 -> data.putShort(halfInUnitRange(random));
                case INT32 -> data.putInt(random.nextInt(INDEX_RANGE));
                case INT64 -> data.putLong(random.nextInt(INDEX_RANGE));
                case INT16 -> data.putShort((short) random.nextInt(INDEX_RANGE));
                case BOOL -> data.put((byte) random.nextInt(2));
                default -> data.put((byte) random.nextInt(256));
            }
        }
        return data.array();
    }

    /** A half-precision value of magnitude in [1/8, 1), either sign. */
    private static short halfInUnitRange(Random random) {
        int sign = random.nextBoolean() ? 0x8000 : 0;
        return (short) (sign | (0x3000 + random.nextInt(0x0C00)));
    }
}
