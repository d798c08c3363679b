package dev.tflitearena.memory;

import javax.management.JMException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bytes the JVM itself has malloc'ed (its compilers, collector, class data, threads), from HotSpot's
 * Native Memory Tracking, which the JVM keeps only when started with {@value #OPTION}. The native heap holds
 * them beside what TFLite and the project allocate, and they come and go by a megabyte while a model merely
 * runs: without taking them out, a model's native memory cannot be told flat from growing.
 */
public final class JvmMalloc {
    public static final String OPTION = "-XX:NativeMemoryTracking=summary";
    /** Returned when Native Memory Tracking is off. */
    public static final long UNKNOWN = -1;
    /** The total line's malloc figure: "malloc: 9972KB #41520" (JDK 17 and newer). */
    private static final Pattern MALLOC = Pattern.compile("(?m)^\\s*malloc: (\\d+)KB");

    private JvmMalloc() {
    }

    /** The JVM's malloc'ed bytes, to the kilobyte, or {@link #UNKNOWN}. */
    public static long bytes() {
        String summary;
        try {
            summary = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[]{new String[]{"summary"}}, new String[]{String[].class.getName()});
        } catch (JMException | RuntimeException e) {
            return UNKNOWN;
        }
        return parse(summary);
    }

    /** The malloc total of a {@code VM.native_memory summary} report, or {@link #UNKNOWN} if it has none. */
    static long parse(String summary) {
        Matcher total = MALLOC.matcher(summary);
        return total.find() ? Long.parseLong(total.group(1)) * 1024 : UNKNOWN;
    }
}
