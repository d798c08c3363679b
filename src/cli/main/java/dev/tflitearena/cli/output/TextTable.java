package dev.tflitearena.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table: right-aligned columns, except those named left-aligned. */
public final class TextTable {
    private final String[] header;
    private final boolean[] leftAligned;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = header;
        this.leftAligned = new boolean[header.length];
    }

    public TextTable leftAlign(int column) {
        leftAligned[column] = true;
        return this;
    }

    public void add(Object... cells) {
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = String.valueOf(cells[i]);
        }
        rows.add(row);
    }

    public void print(PrintWriter out) {
        int[] width = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            width[c] = header[c].length();
            for (String[] row : rows) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        printRow(out, header, width);
        for (String[] row : rows) {
            printRow(out, row, width);
        }
    }

    private void printRow(PrintWriter out, String[] row, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < row.length; c++) {
            if (c > 0) {
                line.append("  ");
            }
            String pad = " ".repeat(width[c] - row[c].length());
            line.append(leftAligned[c] ? row[c] + (c == row.length - 1 ? "" : pad) : pad + row[c]);
        }
        out.println(line);
    }

    /** An offset or node for a table cell: "-" for none. */
    public static String orDash(long value) {
        return value < 0 ? "-" : Long.toString(value);
    }
}
