/**
 * A plan under TFLite's rules baked into the model it places: the metadata entry
 * {@value dev.tflitearena.plan.baked.BakedPlan#NAME} ({@link dev.tflitearena.plan.baked.BakedPlan}), what it is
 * valid for ({@link dev.tflitearena.plan.baked.PlanFingerprint}), and the plan as a planner, which the validator
 * then checks against the prepared interpreter as it checks every plan.
 */
package dev.tflitearena.plan.baked;
