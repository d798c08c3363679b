package dev.tflitearena.graph;

/** A graph that breaks a rule the planners rely on; the message names the subgraph, node and tensor. */
public class InvalidGraphException extends IllegalArgumentException {
    public InvalidGraphException(String message) {
        super(message);
    }
}
