package dev.tflitearena.plan.place;

import dev.tflitearena.plan.InvalidPlanException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Buffer sets in MiniMalloc's CSV format: a header {@code id,lower,upper,size}, then one buffer a line, live
 * over the half-open time interval [lower, upper). Times are renumbered to the steps where something starts
 * or ends, which keeps every overlap and makes the steps few; the set's clock keeps the times, so that a
 * buffer's width is still its time live.
 */
public final class MinimallocCsv {
    private MinimallocCsv() {
    }

    public static BufferSet read(Path file) throws IOException {
        try {
            return parse(Files.readAllLines(file));
        } catch (InvalidPlanException e) {
            throw new InvalidPlanException(file + ": " + e.getMessage());
        }
    }

    /** Unaligned, as MiniMalloc places them. */
    public static BufferSet parse(List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).strip().equals("id,lower,upper,size")) {
            throw new InvalidPlanException("line 1: expected the header 'id,lower,upper,size'");
        }
        List<long[]> rows = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        long[] times = new long[2 * (lines.size() - 1)];
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != 4) {
                throw new InvalidPlanException("line " + (i + 1) + ": expected 4 fields, got " + cells.length);
            }
            long[] row = new long[4];
            for (int c = 0; c < 4; c++) {
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
            return new BufferSet(buffers, 1, 1);
        }
        return new BufferSet(buffers, steps.length - 1, 1, Arrays.stream(steps).boxed().toList());
    }
}
