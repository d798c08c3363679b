/**
 * Every planner by the name users select it by ({@link dev.tflitearena.plan.catalog.Planners}), and the table
 * of them side by side on one graph or buffer set ({@link dev.tflitearena.plan.catalog.PlannerTable}).
 */
package dev.tflitearena.plan.catalog;
