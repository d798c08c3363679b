/**
 * Models run one after another on one rw arena: the {@link dev.tflitearena.plan.group.GroupPlanner} places
 * their primary subgraphs on one timeline, so that one model's activations take another's bytes, and checks
 * a {@link dev.tflitearena.plan.group.GroupPlan} model by model and as a whole.
 */
package dev.tflitearena.plan.group;
