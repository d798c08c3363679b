package dev.tflitearena.plan;

/** A plan that would let two live tensors share memory, or leave a tensor without it; never applied. */
public class InvalidPlanException extends IllegalArgumentException {
    public InvalidPlanException(String message) {
        super(message);
    }
}
