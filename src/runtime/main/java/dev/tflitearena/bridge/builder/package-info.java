/**
 * Building a pure {@link dev.tflitearena.graph.Graph} inside a native interpreter, on kernels that compute
 * nothing, so that TFLite's own planner places it.
 */
package dev.tflitearena.bridge.builder;
