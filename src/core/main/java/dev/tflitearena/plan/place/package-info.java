/**
 * The placement problem on its own: a {@link dev.tflitearena.plan.place.BufferSet} (buffers with sizes and
 * lifetimes, from a subgraph's rw arena or a MiniMalloc CSV) and the {@link dev.tflitearena.plan.place.Placer}s
 * that give its buffers offsets: TFLite's rule, TFLite Micro's and the GPU delegate's greedy strategies, all
 * through one greedy loop ({@link dev.tflitearena.plan.place.GreedyFit}), the best of them, and TFLite Micro's
 * linear planner.
 * {@link dev.tflitearena.plan.place.PlacerPlanner} turns a placer into a planner of a whole subgraph.
 */
package dev.tflitearena.plan.place;
