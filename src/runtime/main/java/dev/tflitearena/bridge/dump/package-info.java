/**
 * Dumping every intermediate tensor of a run to NumPy files with a manifest.
 */
package dev.tflitearena.bridge.dump;
