package dev.tflitearena.bridge;

import dev.tflitearena.TestModels;
import dev.tflitearena.bridge.check.SeededInputs;
import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.memory.NativeHeap;
import dev.tflitearena.memory.ProcessMemory;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;

import javax.management.JMException;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Load, allocate (natively, and with a Java plan handed over), invoke and close, over and over: the
 * process's memory must level off after a warm-up. A leak of one model, interpreter or arena per cycle
 * (face_detection_short_range: 229 KB of model, an arena of over 1 MB) would grow it by hundreds of
 * megabytes. Three measures are asserted. glibc's native heap in use (mallinfo2), where TFLite's models,
 * interpreters and arenas and the Java arena all live. The resident bytes of every mapping outside the Java
 * heap's reserved range: the heap's own pages are touched one region at a time as the collector first uses
 * them, which over a thousand cycles adds tens of megabytes of RSS with no leak at all, and would hide or
 * fake a native one. And JavaCPP's count of the native bytes its live pointers own.
 *
 * <p>Measured here (1,000 cycles): the native heap in use falls a little after the warm-up while RSS outside
 * the Java heap still creeps up by some 6 KB a cycle; mallinfo2 shows why: the free bytes malloc keeps in
 * its per-thread arenas grow (21 to 37 MB), fragments that malloc_trim cannot hand back, not memory in use.
 * The resident bound leaves room for that; a leaked arena per cycle would pass it within forty cycles.
 */
class NativeLeakTest {
    private static final int CYCLES = Integer.getInteger("tflitearena.leakCycles", 1000);
    private static final int WARM_UP = CYCLES / 5;
    private static final long RESIDENT_BOUND = 32L << 20;
    private static final long HEAP_BOUND = 4L << 20;
    /** Pointers the collector found unreachable free their memory on JavaCPP's thread, a little later. */
    private static final long OWNED_SLACK = 1L << 20;
    private static final long UNCOMMIT_WAIT_MS = 2000;
    /** "garbage-first heap   total 61440K, used 23563K [0x0000000687400000, 0x0000000800000000)" */
    /** "7f21a8000000-7f21a8e49000 rw-p 00000000 00:00 0", the first line of each mapping in smaps. */
    private static final Pattern MAPPING = Pattern.compile("([0-9a-f]+)-([0-9a-f]+) ");
    private static final Pattern HEAP_RANGE = Pattern.compile("\\[0x([0-9a-f]+), 0x([0-9a-f]+)\\)");

    private record Reading(long resident, long residentOutsideJavaHeap, long nativeHeap, long javaCppOwned) {
    }

    @Test
    void memoryIsFlatOverRepeatedCycles() throws InterruptedException, IOException {
        Path model = TestModels.named("face_detection_short_range.tflite");
        Reading afterWarmUp = null;
        for (int cycle = 1; cycle <= CYCLES; cycle++) {
            cycle(model, cycle);
            if (cycle == WARM_UP) {
                afterWarmUp = read();
            }
        }
        Reading end = read();
        long residentGrowth = end.residentOutsideJavaHeap() - afterWarmUp.residentOutsideJavaHeap();
        long heapGrowth = end.nativeHeap() - afterWarmUp.nativeHeap();
        int measured = CYCLES - WARM_UP;
        System.out.printf("NativeLeakTest: %d cycles; after cycle %d: VmRSS %d KB (%d KB outside the Java heap),"
                        + " native heap %d bytes; after cycle %d: VmRSS %d KB (%d KB outside the Java heap), native heap"
                        + " %d bytes; per cycle: RSS outside the Java heap %+d bytes, native heap %+d bytes;"
                        + " JavaCPP-owned bytes %d then %d%n", CYCLES, WARM_UP, afterWarmUp.resident() >> 10,
                afterWarmUp.residentOutsideJavaHeap() >> 10, afterWarmUp.nativeHeap(), CYCLES, end.resident() >> 10,
                end.residentOutsideJavaHeap() >> 10, end.nativeHeap(), residentGrowth / measured,
                heapGrowth / measured, afterWarmUp.javaCppOwned(), end.javaCppOwned());
        assertTrue(heapGrowth < HEAP_BOUND, "the native heap grew by " + heapGrowth + " bytes between cycle "
                + WARM_UP + " and cycle " + CYCLES);
        assertTrue(residentGrowth < RESIDENT_BOUND, "resident memory outside the Java heap grew by "
                + residentGrowth + " bytes between cycle " + WARM_UP + " and cycle " + CYCLES);
        assertTrue(end.javaCppOwned() <= afterWarmUp.javaCppOwned() + OWNED_SLACK, "JavaCPP owns "
                + end.javaCppOwned() + " native bytes, " + afterWarmUp.javaCppOwned() + " after the warm-up");
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

    /** The measures, once the Java heap holds only what is live and malloc has returned what is free. */
    private static Reading read() throws InterruptedException, IOException {
        System.gc();
        // G1 hands uncommitted memory back to the system on a thread of its own; collected JavaCPP pointers
        // free their memory on another.
        Thread.sleep(UNCOMMIT_WAIT_MS);
        Pointer.deallocateReferences();
        NativeHeap.trim();
        long resident = ProcessMemory.residentBytes();
        return new Reading(resident, resident - residentIn(javaHeapRange()), NativeHeap.usage().total(),
                Pointer.totalBytes());
    }

    /** The resident bytes of the mappings inside {@code range}, from /proc/self/smaps. */
    private static long residentIn(long[] range) throws IOException {
        long resident = 0;
        boolean inside = false;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            Matcher mapping = MAPPING.matcher(line);
            if (mapping.lookingAt()) {
                inside = Long.parseUnsignedLong(mapping.group(1), 16) >= range[0]
                        && Long.parseUnsignedLong(mapping.group(2), 16) <= range[1];
            } else if (inside && line.startsWith("Rss:")) {
                resident += Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        return resident;
    }

    /** The Java heap's reserved address range, as HotSpot's GC.heap_info diagnostic command prints it. */
    private static long[] javaHeapRange() {
        try {
            String info = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcHeapInfo",
                    new Object[]{null}, new String[]{String[].class.getName()});
            Matcher range = HEAP_RANGE.matcher(info);
            assertTrue(range.find(), "no address range in GC.heap_info: " + info);
            return new long[]{Long.parseUnsignedLong(range.group(1), 16), Long.parseUnsignedLong(range.group(2), 16)};
        } catch (JMException e) {
            throw new IllegalStateException("GC.heap_info failed", e);
        }
    }
}
