/**
 * Handing a Java plan to a native interpreter: the Java arena that holds the plan, and the no-op node whose
 * prepare gives every planned tensor a custom allocation in it before TFLite's planner runs.
 */
package dev.tflitearena.bridge.handover;
