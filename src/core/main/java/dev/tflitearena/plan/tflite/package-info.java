/**
 * TFLite's CPU planner reproduced offset for offset: {@link dev.tflitearena.plan.tflite.TflitePlanner} drives
 * {@link dev.tflitearena.plan.tflite.ArenaPlanner} call for call over two
 * {@link dev.tflitearena.plan.tflite.SimpleMemoryArena}s, and ties fall as in the native library built with GCC,
 * through libstdc++'s {@code std::sort} ({@link dev.tflitearena.plan.tflite.GnuIntroSort}) and
 * {@code std::unordered_set<int>} ({@link dev.tflitearena.plan.tflite.GnuUnorderedIntSet}).
 */
package dev.tflitearena.plan.tflite;
