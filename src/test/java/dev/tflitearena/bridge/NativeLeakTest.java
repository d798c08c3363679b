package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.TflitePlanner;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Load, allocate (natively, and with a Java plan handed over), invoke and close, over and over: the
 * process's resident memory must level off after a warm-up. A leak of one model, interpreter or arena per
 * cycle (face_detection_short_range: 229 KB of model, an arena of over 1 MB) would grow it by hundreds of
 * megabytes. What is asserted is VmRSS less the Java heap's committed size, read after a collection: the
 * heap grows and shrinks with the planner's garbage (and with the tests run before in this JVM) by far more
 * than the bound, and would hide or fake a native leak. JavaCPP's count of the native bytes its live
 * pointers own must stay where it was too.
 */
class NativeLeakTest {
    private static final int CYCLES = Integer.getInteger("tflitearena.leakCycles", 1000);
    private static final int WARM_UP = CYCLES / 5;
    private static final long BOUND = 32L << 20;
    /** Pointers the collector found unreachable free their memory on JavaCPP's thread, a little later. */
    private static final long OWNED_SLACK = 1L << 20;
    private static final long UNCOMMIT_WAIT_MS = 2000;

    @Test
    void memoryIsFlatOverRepeatedCycles() throws IOException, InterruptedException {
        Path model = TestModels.named("face_detection_short_range.tflite");
        long[] afterWarmUp = null;
        long ownedAfterWarmUp = 0;
        for (int cycle = 1; cycle <= CYCLES; cycle++) {
            cycle(model, cycle);
            if (cycle == WARM_UP) {
                afterWarmUp = residentAndHeapAfterGc();
                ownedAfterWarmUp = Pointer.totalBytes();
            }
        }
        long[] end = residentAndHeapAfterGc();
        long growth = (end[0] - end[1]) - (afterWarmUp[0] - afterWarmUp[1]);
        System.out.printf("NativeLeakTest: %d cycles; after cycle %d VmRSS %d KB, heap committed %d KB; after cycle"
                        + " %d VmRSS %d KB, heap committed %d KB; outside the heap %+d bytes per cycle; JavaCPP-owned"
                        + " bytes %d then %d%n", CYCLES, WARM_UP, afterWarmUp[0] >> 10, afterWarmUp[1] >> 10, CYCLES,
                end[0] >> 10, end[1] >> 10, growth / (CYCLES - WARM_UP), ownedAfterWarmUp, Pointer.totalBytes());
        assertTrue(growth < BOUND, "resident memory outside the heap grew by " + growth + " bytes between cycle " + WARM_UP
                + " and cycle " + CYCLES);
        assertTrue(Pointer.totalBytes() <= ownedAfterWarmUp + OWNED_SLACK, "JavaCPP owns " + Pointer.totalBytes()
                + " native bytes, " + ownedAfterWarmUp + " after the warm-up");
    }

    private static void cycle(Path file, long seed) {
        try (NativeModel model = NativeModel.load(file);
             NativeInterpreter nativePlanned = NativeInterpreter.build(model, InterpreterSettings.DEFAULT);
             NativeInterpreter javaPlanned = NativeInterpreter.build(model, InterpreterSettings.DEFAULT)) {
            nativePlanned.allocateTensors();
            Graph graph = nativePlanned.snapshot();
            try (JavaArena arena = JavaArena.allocate(graph, new TflitePlanner().plan(graph))) {
                javaPlanned.allocateTensors(arena);
            }
            for (NativeInterpreter interpreter : new NativeInterpreter[]{nativePlanned, javaPlanned}) {
                for (int input = 0; input < interpreter.inputCount(); input++) {
                    interpreter.writeInput(input, SeededInputs.of(interpreter.input(input), seed));
                }
                interpreter.invoke();
            }
        }
    }

    /** VmRSS of /proc/self/status and the heap's committed bytes, once the heap holds only what is live. */
    private static long[] residentAndHeapAfterGc() throws IOException, InterruptedException {
        System.gc();
        // G1 shrinks the committed size at once but hands the memory back to the system on a thread of its own.
        Thread.sleep(UNCOMMIT_WAIT_MS);
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return new long[]{Long.parseLong(line.replaceAll("\\D", "")) * 1024, heap};
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}
