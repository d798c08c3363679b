package dev.tflitearena.memory;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmMallocTest {
    @Test
    void theTotalMallocLineOfASummaryIsRead() {
        String summary = """
                Native Memory Tracking:

                (Omitting categories weighting less than 1KB)

                Total: reserved=7850023KB, committed=119527KB
                       malloc: 12371KB #41520
                       mmap:   reserved=7837652KB, committed=107156KB

                -                 Java Heap (reserved=6291456KB, committed=61440KB)
                                            (mmap: reserved=6291456KB, committed=61440KB)
                -                     Class (reserved=1048913KB, committed=1681KB)
                                            (malloc=337KB #3124)
                """;
        assertEquals(12371L * 1024, JvmMalloc.parse(summary));
    }

    @Test
    void withoutNativeMemoryTrackingItIsUnknown() {
        assertEquals(JvmMalloc.UNKNOWN, JvmMalloc.parse("Native memory tracking is not enabled\n"));
    }

    @Test
    void thisModulesTestJvmTracksItsMallocs() {
        // src/cli/pom.xml starts the test JVM with Native Memory Tracking, for the memory tests.
        assertTrue(JvmMalloc.bytes() > 0);
    }
}
