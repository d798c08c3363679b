/**
 * Reading a prepared native interpreter into the project's pure model: its subgraphs as a
 * {@link dev.tflitearena.graph.Graph}, and where TFLite's own planner put every arena tensor as a
 * {@link dev.tflitearena.plan.Plan}.
 */
package dev.tflitearena.bridge.snapshot;
