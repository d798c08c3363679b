/**
 * What a plan is and what every plan must respect: a {@link dev.tflitearena.plan.Plan} of
 * {@link dev.tflitearena.plan.Placement}s per subgraph, made by a {@link dev.tflitearena.plan.Planner} within
 * TFLite's {@link dev.tflitearena.plan.Lifetimes}; the {@link dev.tflitearena.plan.LowerBound} no plan beats and
 * the {@link dev.tflitearena.plan.Ledger} of a subgraph's memory before planning; the
 * {@link dev.tflitearena.plan.PlanValidator} that refuses a broken plan, and the
 * {@link dev.tflitearena.plan.PlanComparison} of two plans tensor by tensor. The planners themselves are in the
 * packages below: {@code tflite} (TFLite's own), {@code place} (placers over a buffer set), {@code search}
 * (the exact search), {@code catalog} (all of them by name); {@code order} picks the op order that lowers the
 * bound.
 */
package dev.tflitearena.plan;
