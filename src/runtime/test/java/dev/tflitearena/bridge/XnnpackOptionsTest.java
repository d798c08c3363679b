package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.check.CrossCheck;
import dev.tflitearena.bridge.check.DifferentialRun;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** XNNPACK's delegate with the project's options: its threads and flags take effect, plans still match. */
class XnnpackOptionsTest {
    private static final Path MODEL = TestModels.named("face_detection_short_range.tflite");

    @Test
    void theThreadCountTakesEffect() throws IOException, InterruptedException {
        InterpreterSettings settings = InterpreterSettings.DEFAULT.withXnnpackOptions(XnnpackOptions.threads(4));
        try (NativeModel model = NativeModel.load(MODEL)) {
            NativeInterpreter.build(model, InterpreterSettings.DEFAULT).close(); // loads the libraries first
            long before = ProcessThreads.unnamed();
            long during;
            try (NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
                interpreter.allocateTensors(); // applies the delegate
                during = ProcessThreads.unnamed();
                interpreter.invoke();
            }
            long after = ProcessThreads.unnamedSettlingTo(during - 3);
            // pthreadpool runs work on the caller and threads - 1 workers of its own, which it joins on delete.
            assertTrue(during - before >= 3, "threads before " + before + ", with the delegate " + during);
            assertTrue(during - after >= 3, "threads with the delegate " + during + ", after it " + after);
        }
    }

    @Test
    void aDelegateWithOptionsRunsAJavaPlanLikeTheNativeOne() {
        for (int flags : new int[] {XnnpackOptions.DEFAULT_FLAGS, XnnpackOptions.FLAG_QS8,
                XnnpackOptions.FLAG_QS8 | XnnpackOptions.FLAG_QU8}) {
            InterpreterSettings settings = InterpreterSettings.DEFAULT.withXnnpackOptions(
                    XnnpackOptions.threads(2).withFlags(flags));
            try (NativeModel model = NativeModel.load(MODEL)) {
                CrossCheck.Result check = CrossCheck.run(model, settings, 1);
                assertTrue(check.comparison().identical(), () -> "flags " + flags + ": " + check.comparison().subgraphs());
                assertTrue(check.graph().subgraphs().get(0).nodes().stream()
                        .anyMatch(n -> n.op().contains("TfLiteXNNPackDelegate")), "the graph is delegated");
                DifferentialRun.Result run = DifferentialRun.run(model, settings, new TflitePlanner(), 2, 1, true);
                assertTrue(run.outputsIdentical(), run::firstDifference);
            }
        }
    }

    /** Whether the XNNPACK delegate of {@code flags} takes the int8 graph's CONV_2D over. */
    private static boolean delegatesTheInt8Convolution(NativeModel model, int flags) {
        InterpreterSettings settings = InterpreterSettings.DEFAULT.withXnnpackOptions(
                XnnpackOptions.threads(1).withFlags(flags));
        try (NativeInterpreter interpreter = NativeInterpreter.build(model, settings)) {
            interpreter.allocateTensors();
            return interpreter.snapshot().subgraphs().get(0).nodes().stream().noneMatch(n -> n.op().equals("CONV_2D"));
        }
    }

    /**
     * The flags field by behaviour, on every release (2.12 cannot report a delegate's flags): only with
     * FLAG_QS8 does XNNPACK take the signed 8-bit convolution.
     */
    @Test
    void theQs8FlagTakesEffect() {
        try (NativeModel model = NativeModel.fromBytes(SampleModels.int8ConvNet(), "int8_convnet")) {
            assertFalse(delegatesTheInt8Convolution(model, 0), "flags 0 delegates the int8 CONV_2D");
            assertTrue(delegatesTheInt8Convolution(model, XnnpackOptions.FLAG_QS8), "FLAG_QS8 leaves the int8 CONV_2D");
        }
    }

    @Test
    void theDefaultXnnpackIsStillTflitesOwnDelegate() {
        assertEquals("BuiltinOpResolver (XNNPACK)", InterpreterSettings.DEFAULT.withXnnpack(true).resolverName());
        assertEquals("BuiltinOpResolverWithoutDefaultDelegates + XNNPACK delegate, 3 threads",
                InterpreterSettings.DEFAULT.withXnnpackOptions(XnnpackOptions.threads(3)).resolverName());
    }

    @Test
    void badOptionsAreRefusedNamingTheValue() {
        var threads = assertThrows(IllegalArgumentException.class, () -> XnnpackOptions.threads(0));
        assertTrue(threads.getMessage().contains("at least 1; got 0"), threads.getMessage());
        var flags = assertThrows(IllegalArgumentException.class, () -> XnnpackOptions.threads(1).withFlags(0x40));
        assertTrue(flags.getMessage().contains("0x40"), flags.getMessage());
        var off = assertThrows(IllegalArgumentException.class, () -> new InterpreterSettings(false, false,
                InterpreterSettings.DEFAULT_THREADS, null, XnnpackOptions.threads(2)));
        assertTrue(off.getMessage().contains("need XNNPACK on"), off.getMessage());
    }
}
