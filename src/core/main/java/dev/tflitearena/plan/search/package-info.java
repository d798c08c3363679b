/**
 * The exact search: {@link dev.tflitearena.plan.search.OptimalPlacer} lowers the arena and raises the proven
 * bound until they meet or time is up, asking a capacity search over canonical placements, after MiniMalloc,
 * whether a buffer set fits in a given size.
 */
package dev.tflitearena.plan.search;
