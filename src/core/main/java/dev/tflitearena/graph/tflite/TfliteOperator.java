package dev.tflitearena.graph.tflite;

/**
 * One operator of a subgraph, in the file's (and the interpreter's) execution order. {@code op} is the
 * BuiltinOperator's name, or the custom op's name when {@code builtinCode} is CUSTOM (32); a builtin code
 * the schema of this reader does not name reads as "BUILTIN_" and the code. Tensor indices of -1 are absent
 * optional tensors. {@code subgraphs} are those control flow calls, in its options' order (IF: then, else;
 * WHILE: condition, body; CALL_ONCE: init), none for other ops. Arrays are shared, not copied: treat them as
 * read-only.
 */
public record TfliteOperator(String op, int builtinCode, int version, int[] inputs, int[] outputs,
                             int[] intermediates, int[] subgraphs) {
}
