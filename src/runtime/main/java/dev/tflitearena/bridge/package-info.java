/**
 * A native TFLite interpreter and its model, driven through the JavaCPP presets: loading a model, building an
 * interpreter with its settings and XNNPACK delegate, allocating, invoking, reading and writing its inputs and
 * outputs, and what it holds (its arenas, heap structures and ArenaPlanner). It builds on the packages that read
 * what an interpreter prepared ({@link dev.tflitearena.bridge.snapshot}), hand it memory
 * ({@link dev.tflitearena.bridge.handover}, {@link dev.tflitearena.bridge.sharing}) and wrap the presets'
 * calls ({@link dev.tflitearena.bridge.presets}); the checks, the dump and graphs built in code drive it.
 */
package dev.tflitearena.bridge;
