/**
 * The options that several commands take, each declared once as a picocli mixin, and what they turn the command
 * line into: the graph a model or graph JSON is read as, the planner, the interpreter settings, where the result
 * goes (--json, --out) and the progress shown (--quiet).
 */
package dev.tflitearena.cli.options;
