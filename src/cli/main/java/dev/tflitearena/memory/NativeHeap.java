package dev.tflitearena.memory;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Structure;

/**
 * What glibc's malloc holds for the process, through JNA. TFLite's arenas, interpreters and the Java arena
 * are all malloc'ed, so their growth shows here, where the JVM's own heap does not. Linux with glibc 2.33 or
 * newer only (mallinfo2); 64-bit, where size_t is a Java long.
 */
public final class NativeHeap {
    private static final C LIBC = Native.load("c", C.class);
    private static final int STEADY_ATTEMPTS = 5;

    /** glibc's struct mallinfo2, every field a size_t, in declaration order. */
    @Structure.FieldOrder({"arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost"})
    public static class MallInfo2 extends Structure {
        public long arena;
        public long ordblks;
        public long smblks;
        public long hblks;
        public long hblkhd;
        public long usmblks;
        public long fsmblks;
        public long uordblks;
        public long fordblks;
        public long keepcost;

        public static class ByValue extends MallInfo2 implements Structure.ByValue {
        }
    }

    private interface C extends Library {
        MallInfo2.ByValue mallinfo2();

        int malloc_trim(long pad);
    }

    /**
     * @param inUse  bytes of chunks handed out from malloc's heaps ({@code uordblks})
     * @param mapped bytes of chunks malloc placed in their own mmap ({@code hblkhd}): large blocks, such as
     *               arenas of a megabyte, land there and are missing from {@code inUse}
     * @param jvm    of those, the JVM's own ({@link JvmMalloc}), or {@link JvmMalloc#UNKNOWN}
     */
    public record Usage(long inUse, long mapped, long jvm) {
        public long total() {
            return inUse + mapped;
        }

        /** What TFLite, JavaCPP and the project hold: the total less the JVM's own, where that is known. */
        public long outsideJvm() {
            return jvm == JvmMalloc.UNKNOWN ? total() : total() - jvm;
        }
    }

    private NativeHeap() {
    }

    public static Usage usage() {
        // The JVM mallocs and frees on threads of its own meanwhile (its compilers, the collector): a reading
        // counts when the JVM's share was the same just before and just after it.
        for (int attempt = 1; ; attempt++) {
            long before = JvmMalloc.bytes();
            MallInfo2 info = LIBC.mallinfo2();
            long after = JvmMalloc.bytes();
            if (before == after || attempt == STEADY_ATTEMPTS) {
                return new Usage(info.uordblks, info.hblkhd, after);
            }
        }
    }

    /** Returns free heap memory to the system, so that the process's RSS shows what is in use, not what was. */
    public static void trim() {
        LIBC.malloc_trim(0);
    }
}
