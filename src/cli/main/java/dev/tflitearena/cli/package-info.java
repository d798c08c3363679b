/**
 * The tflite-arena command line: {@link dev.tflitearena.cli.Main}, which runs each command in a child JVM that a
 * crash in native code cannot take down, and the commands themselves, one class each, built from the shared
 * options of {@link dev.tflitearena.cli.options} and printing through {@link dev.tflitearena.cli.output}.
 */
package dev.tflitearena.cli;
