/**
 * TensorFlow Lite Micro's view of a model: the tensors its allocator plans, their lifetimes over every subgraph,
 * sizes and alignment ({@link dev.tflitearena.plan.tflm.TflmAllocations}), and a plan baked for TFLM's
 * {@code OfflineMemoryAllocation} metadata ({@link dev.tflitearena.plan.tflm.TflmOfflinePlan}).
 */
package dev.tflitearena.plan.tflm;
