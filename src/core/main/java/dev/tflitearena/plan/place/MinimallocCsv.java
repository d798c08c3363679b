package dev.tflitearena.plan.place;

import dev.tflitearena.plan.InvalidPlanException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Buffer sets in MiniMalloc's CSV format: a header {@code id,lower,upper,size}, then one buffer a line, live
 * over the half-open time interval [lower, upper). Times are renumbered to the steps where something starts
 * or ends, which keeps every overlap and makes the steps few; the set's clock keeps the times, so that a
 * buffer's width is still its time live. A fifth column {@code offline} gives a buffer's offline-planned offset
 * for TFLM's GreedyMemoryPlanner, -1 for none.
 */
public final class MinimallocCsv {
    public static final String HEADER_WITH_OFFLINE = MinimallocProblem.HEADER + ",offline";

    /** A set read, with the offline-planned offsets of the buffers that have one, by id. */
    public record Read(BufferSet buffers, Map<Integer, Long> offlineOffsets) {
        public Read {
            offlineOffsets = Map.copyOf(offlineOffsets);
        }
    }

    private MinimallocCsv() {
    }

    /** A set without offline offsets: one that gives any is refused, as only TFLM's planner places them. */
    public static BufferSet read(Path file) throws IOException {
        return withoutOffline(readWithOffline(file), file + ": ");
    }

    public static Read readWithOffline(Path file) throws IOException {
        try {
            return parseWithOffline(Files.readAllLines(file));
        } catch (InvalidPlanException e) {
            throw new InvalidPlanException(file + ": " + e.getMessage());
        }
    }

    /** Unaligned, as MiniMalloc places them; an {@code offline} column must hold -1 only. */
    public static BufferSet parse(List<String> lines) {
        return withoutOffline(parseWithOffline(lines), "");
    }

    private static BufferSet withoutOffline(Read read, String where) {
        if (!read.offlineOffsets().isEmpty()) {
            throw new InvalidPlanException(where + "buffers " + new TreeMap<>(read.offlineOffsets()).keySet()
                    + " have offline offsets, which only " + TflmGreedyPlacer.NAME + " places");
        }
        return read.buffers();
    }

    /** Unaligned, as MiniMalloc places them. */
    public static Read parseWithOffline(List<String> lines) {
        String header = lines.isEmpty() ? "" : lines.get(0).strip();
        if (!header.equals(MinimallocProblem.HEADER) && !header.equals(HEADER_WITH_OFFLINE)) {
            throw new InvalidPlanException("line 1: expected the header '" + MinimallocProblem.HEADER + "' or '"
                    + HEADER_WITH_OFFLINE + "'");
        }
        int columns = header.split(",").length;
        List<long[]> rows = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        Map<Integer, Long> offline = new HashMap<>();
        long[] times = new long[2 * (lines.size() - 1)];
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != columns) {
                throw new InvalidPlanException("line " + (i + 1) + ": expected " + columns + " fields, got "
                        + cells.length);
            }
            long[] row = new long[columns];
            for (int c = 0; c < columns; c++) {
                try {
                    row[c] = Long.parseLong(cells[c].strip());
                } catch (NumberFormatException e) {
                    throw new InvalidPlanException("line " + (i + 1) + ": '" + cells[c] + "' is not an integer");
                }
            }
            if (row[0] < 0 || row[0] > Integer.MAX_VALUE || !ids.add(row[0])) {
                throw new InvalidPlanException("line " + (i + 1) + ": id " + row[0] + " is negative, too large or repeated");
            }
            if (row[1] < 0 || row[2] <= row[1] || row[3] < 0) {
                throw new InvalidPlanException("line " + (i + 1) + ": needs 0 <= lower < upper and size >= 0, got "
                        + line);
            }
            if (columns == 5 && row[4] < -1) {
                throw new InvalidPlanException("line " + (i + 1) + ": offline offset " + row[4]
                        + " is neither -1 (none) nor an offset");
            }
            if (columns == 5 && row[4] >= 0) {
                offline.put((int) row[0], row[4]);
            }
            times[2 * rows.size()] = row[1];
            times[2 * rows.size() + 1] = row[2];
            rows.add(row);
        }
        long[] steps = Arrays.stream(times, 0, 2 * rows.size()).sorted().distinct().toArray();
        List<BufferSet.Buffer> buffers = new ArrayList<>(rows.size());
        for (long[] row : rows) {
            int first = Arrays.binarySearch(steps, row[1]);
            int end = Arrays.binarySearch(steps, row[2]);
            buffers.add(new BufferSet.Buffer((int) row[0], row[3], first, end - 1));
        }
        if (steps.length < 2) {
            return new Read(new BufferSet(buffers, 1, 1), offline);
        }
        return new Read(new BufferSet(buffers, steps.length - 1, 1, Arrays.stream(steps).boxed().toList()), offline);
    }
}
