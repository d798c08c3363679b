/**
 * The plumbing under every call into TFLite through the JavaCPP presets: the loaded library's release and what
 * differs between releases, status checks and the exception a failed call throws, reading native arrays,
 * allocation types and memory, pointers to native addresses, custom-op registrations, and native memory freed
 * only once its last user has closed.
 */
package dev.tflitearena.bridge.presets;
