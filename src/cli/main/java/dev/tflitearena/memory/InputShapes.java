package dev.tflitearena.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Input shapes as the command line writes them ({@code 1x128x128x3}), and the ones tried by default. */
public final class InputShapes {
    private InputShapes() {
    }

    public static int[] parse(String text) {
        try {
            int[] shape = Arrays.stream(text.strip().split("x", -1)).mapToInt(Integer::parseInt).toArray();
            if (Arrays.stream(shape).allMatch(d -> d > 0)) {
                return shape;
            }
        } catch (NumberFormatException e) {
            // Refused below, with what a shape looks like.
        }
        throw new IllegalArgumentException("not a shape: '" + text + "'; write positive dimensions joined by x, "
                + "such as 1x128x128x3");
    }

    public static String format(int[] shape) {
        return Arrays.stream(shape).mapToObj(Integer::toString).collect(Collectors.joining("x"));
    }

    /**
     * Shapes to try when none are given: the batch doubled and quadrupled, and for an image (rank 4, NHWC)
     * the height and width halved and doubled. Whether the model accepts them is for TFLite to say.
     */
    public static List<int[]> defaults(int[] own) {
        List<int[]> shapes = new ArrayList<>();
        if (own.length == 0) {
            return shapes;
        }
        shapes.add(scaled(own, 0, 1, 2, 1));
        shapes.add(scaled(own, 0, 1, 4, 1));
        if (own.length == 4) {
            if (own[1] % 2 == 0 && own[2] % 2 == 0) {
                shapes.add(scaled(own, 1, 3, 1, 2));
            }
            shapes.add(scaled(own, 1, 3, 2, 1));
        }
        return shapes;
    }

    /** The shape with dimensions [from, to) multiplied by times and divided by by. */
    private static int[] scaled(int[] shape, int from, int to, int times, int by) {
        int[] scaled = shape.clone();
        for (int d = from; d < to; d++) {
            scaled[d] = Math.multiplyExact(shape[d], times) / by;
        }
        return scaled;
    }
}
