/**
 * Running TFLite models from Java, in the style of ONNX Runtime's Java API ({@code OrtSession},
 * {@code OnnxTensor}): a verified {@link dev.tflitearena.session.TfLiteModel}, loaded from a file, a byte array
 * or a buffer (its bytes copied into native memory it owns, as TFLite reads a model in place); a
 * {@link dev.tflitearena.session.Session} per caller, with the {@link dev.tflitearena.session.SessionOptions} it
 * runs under (the arena planner, native or a Java one; XNNPACK; TFLite's and XNNPACK's threads, which are the
 * session's own; the op order; what it shares); a {@link dev.tflitearena.session.SessionPool} for concurrent
 * callers; an {@link dev.tflitearena.session.ArenaGroup} for models that run one after another on one arena.
 * A model may carry a plan baked into it ({@link dev.tflitearena.session.PlanBaking}), which its sessions run on
 * instead of planning, as {@link dev.tflitearena.session.SessionOptions#withBakedPlan} says.
 *
 * <p>A session describes its inputs and outputs as {@link dev.tflitearena.session.TensorInfo}s (name, element
 * type, shape, bytes, quantization) and runs on Java arrays of each type's natural form or direct buffers
 * ({@link dev.tflitearena.session.Session#run(Object...)} lists them); the
 * {@link dev.tflitearena.session.Outputs} of a run are copies, of every output or of those the run selects.
 * Without copies: caller buffers bound to inputs and outputs, which TFLite reads and writes in place
 * ({@link dev.tflitearena.session.Session#bindInput}), and read-only views of outputs, valid until the next run
 * ({@link dev.tflitearena.session.Session#outputView}). A model's signatures run by key, under the signature's
 * names ({@link dev.tflitearena.session.Session#runSignature}).
 *
 * <p>Everything native is {@link java.lang.AutoCloseable}; a call after close throws
 * {@link java.lang.IllegalStateException}. Bad values are refused with an {@link java.lang.IllegalArgumentException}
 * naming what the model or signature expects; the only checked exceptions are a pool's, when a caller waited
 * in vain or was interrupted.
 */
package dev.tflitearena.session;
