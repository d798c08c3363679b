/**
 * Runs that compare native interpreters on reproducible seeded inputs: the Java planner's plans against
 * TFLite's, a Java plan's outputs against the native planner's, and two interpreters' constant-derived tensors
 * against each other before they are shared.
 */
package dev.tflitearena.bridge.check;
