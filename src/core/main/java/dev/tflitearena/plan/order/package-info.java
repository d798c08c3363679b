/**
 * Memory-aware op order: {@link dev.tflitearena.plan.order.MemoryOrder} picks a topological order of the primary
 * subgraph's nodes that lowers the rw arena's {@link dev.tflitearena.plan.LowerBound}, by an exact search over the
 * sets of ops already run where those are few, otherwise by the best of a portfolio of orders. What an order
 * may change is in {@link dev.tflitearena.plan.order.Precedence}; what it costs, in
 * {@link dev.tflitearena.plan.order.LiveBytes}.
 */
package dev.tflitearena.plan.order;
