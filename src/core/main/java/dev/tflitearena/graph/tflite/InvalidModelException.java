package dev.tflitearena.graph.tflite;

/**
 * A {@code .tflite} file that cannot be read as a TFLite model: truncated, corrupt, or breaking a rule the
 * runtime relies on. The message names the file and what is wrong where.
 */
public class InvalidModelException extends IllegalArgumentException {
    public InvalidModelException(String message) {
        super(message);
    }
}
