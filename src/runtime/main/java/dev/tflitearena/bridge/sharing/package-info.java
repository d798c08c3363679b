/**
 * Sharing between interpreters of one model the persistent tensors that kernels compute from constants alone:
 * the rules that name them, the native region that holds them, and why every other persistent tensor stays
 * private.
 */
package dev.tflitearena.bridge.sharing;
