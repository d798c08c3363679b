package dev.tflitearena.bridge.presets;

import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process's anonymous readable memory as /proc/self/maps listed it, for following a pointer found in a
 * native object without trusting it: a read outside a mapping kills the JVM. Only anonymous mappings count
 * (malloc's heap and arenas, where C++ objects live), since a file mapping faults past the file's end and the
 * kernel's special pages ([vvar], [vsyscall]) may refuse a read. Under qemu-user the list is the emulator's
 * view of the guest, so the same check holds there.
 */
public final class ReadableMemory {
    private static final Path MAPS = Path.of("/proc/self/maps");

    private record Range(long start, long end) {
        boolean holds(long address, long bytes) {
            return address >= start && bytes >= 0 && address <= end - bytes;
        }
    }

    private final List<Range> ranges;

    private ReadableMemory(List<Range> ranges) {
        this.ranges = ranges;
    }

    /** The mappings as they are now; read it right before use, as mappings come and go. */
    public static ReadableMemory now() {
        try {
            List<Range> ranges = new ArrayList<>();
            for (String line : Files.readAllLines(MAPS)) {
                // start-end perms offset dev inode [name]
                String[] fields = line.trim().split("\\s+", 6);
                String name = fields.length == 6 ? fields[5] : "";
                boolean anonymous = fields[4].equals("0")
                        && (name.isEmpty() || name.equals("[heap]") || name.startsWith("[anon:"));
                if (fields[1].charAt(0) == 'r' && anonymous) {
                    String[] bounds = fields[0].split("-");
                    ranges.add(new Range(Long.parseUnsignedLong(bounds[0], 16), Long.parseUnsignedLong(bounds[1], 16)));
                }
            }
            return new ReadableMemory(ranges);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MAPS, e);
        }
    }

    /** Whether {@code bytes} bytes from {@code address} lie inside one listed mapping. */
    public boolean holds(long address, long bytes) {
        return ranges.stream().anyMatch(r -> r.holds(address, bytes));
    }

    /** The {@code count} native words at {@code address}; refuses memory that is not listed. */
    public long[] words(long address, int count) {
        if (address % Long.BYTES != 0 || !holds(address, (long) count * Long.BYTES)) {
            throw new IllegalArgumentException(String.format("0x%x: %d words there are not in anonymous readable"
                    + " memory", address, count));
        }
        long[] words = new long[count];
        new LongPointer(at(address)).capacity(count).get(words);
        return words;
    }

    /** A pointer with the given address: JavaCPP sets addresses only from native code or a subclass. */
    public static Pointer at(long value) {
        return new Pointer() {
            {
                address = value;
            }
        };
    }
}
