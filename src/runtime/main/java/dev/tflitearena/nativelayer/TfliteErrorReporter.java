package dev.tflitearena.nativelayer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * TFLite's ErrorReporter for the models the bridge loads and the interpreters built from them
 * (native/error_reporter.cc): what the verifier, the builder, the kernels and delegates report (why a file is
 * no valid model, why an op refused to prepare or run) is logged through SLF4J at ERROR, under this class's name. Where SLF4J would drop it (no SLF4J
 * provider, or slf4j-nop, as the command line has), it goes to standard error instead, as TFLite's own
 * reporter prints it. TFLite's other lines (its MinimalLogger's, such as XNNPACK's "INFO:") have no hook and
 * stay on standard error.
 */
public final class TfliteErrorReporter {
    private static final Logger LOG = LoggerFactory.getLogger(TfliteErrorReporter.class);

    private TfliteErrorReporter() {
    }

    /** The address of the process's one reporter, for the models' verifier and builders; 0 without the native layer. */
    public static long address() {
        return Created.ADDRESS;
    }

    /** Whether reports go to standard error, as SLF4J logs nowhere. */
    public static boolean toStandardError() {
        return LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory;
    }

    private static final class Created {
        static final long ADDRESS = NativeLayer.loadFailure() == null ? create(toStandardError()) : 0;
    }

    /** Called by native code with one report, in the thread that made it. */
    private static void report(byte[] message) {
        LOG.error(new String(message, StandardCharsets.UTF_8));
    }

    private static native long create(boolean toStandardError);
}
