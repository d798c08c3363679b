package dev.tflitearena.plan.render;

import dev.tflitearena.plan.render.PlanPicture.Box;
import dev.tflitearena.plan.render.PlanPicture.Panel;
import dev.tflitearena.plan.render.PlanPicture.Peak;

import java.util.Comparator;
import java.util.List;

/**
 * Draws a {@link PlanPicture} for a terminal, in plain ASCII: per panel, time across and offsets up from 0
 * (as in the SVG), a fixed number of rows scaled to the arena top. Each buffer owning memory gets a symbol,
 * the largest first, and a cell shows the buffer covering most of it once buffers fill at least half of it,
 * so that free memory looks free and full memory full. In-place aliases are left to their roots. A caret under
 * the node numbers marks the peak of the lower bound, which the legend names.
 */
public final class AsciiRenderer {
    private static final int ROWS = 24;
    /** How many of the largest buffers the legend names. */
    private static final int LEGEND = 12;
    private static final String SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final int MARGIN = 10;
    /** The offset labels and the frame's two sides. */
    private static final int DECORATION = MARGIN + 3;
    private static final int MIN_COLUMNS = DECORATION + 8;

    private AsciiRenderer() {
    }

    /**
     * {@code columns}, at least 21, is the width of the plots and of the legend's buffer lines; titles,
     * captions and the line naming the peak are not cut.
     */
    public static String render(PlanPicture picture, int columns) {
        if (columns < MIN_COLUMNS) {
            throw new IllegalArgumentException("need at least " + MIN_COLUMNS + " columns, got " + columns);
        }
        StringBuilder out = new StringBuilder(picture.title()).append('\n');
        for (Panel panel : picture.panels()) {
            out.append('\n').append(panel.title()).append('\n').append(panel.caption()).append('\n');
            new PanelDrawing(out, panel, columns).draw();
        }
        return out.toString();
    }

    /** One panel: the owners in symbol order and the plot's width, fixed at construction. */
    private static final class PanelDrawing {
        private final StringBuilder out;
        private final Panel panel;
        private final List<Box> owners;
        private final int columns;
        /** A whole number of columns per step when the steps fit, so that every step is as wide as the next. */
        private final int width;

        PanelDrawing(StringBuilder out, Panel panel, int columns) {
            this.out = out;
            this.panel = panel;
            this.columns = columns;
            int available = columns - DECORATION;
            this.owners = panel.boxes().stream().filter(b -> !b.alias())
                    .sorted(Comparator.comparingLong(Box::bytes).reversed()).toList();
            this.width = panel.steps() <= available ? available / panel.steps() * panel.steps() : available;
        }

        void draw() {
            if (panel.arenaBytes() == 0) {
                out.append("(no rw buffers)\n");
                return;
            }
            char[][] cells = cells();
            boolean tight = panel.lowerBound() == panel.arenaBytes();
            // Inside the frame even when a row's rounding would put it on an edge: it is neither 0 nor the top.
            int lowerBoundRows = (int) Math.min(ROWS - 1,
                    Math.max(1, Math.round((double) panel.lowerBound() * ROWS / panel.arenaBytes())));
            edge(Numbers.human(panel.arenaBytes()), '+', '=', (tight ? " arena top = lower bound " : " arena top ")
                    + Numbers.bytes(panel.arenaBytes()) + " ");
            for (int row = 0; row < ROWS; row++) {
                if (!tight && row == ROWS - lowerBoundRows) {
                    String label = " lower bound " + Numbers.bytes(panel.lowerBound()) + " ";
                    edge(Numbers.human(panel.lowerBound()), ':', '-', label);
                }
                out.append(" ".repeat(MARGIN + 1)).append('|').append(cells[row]).append("|\n");
            }
            edge("0", '+', '-', "");
            nodeAxis();
            peakMarker();
            legend();
        }

        /** A horizontal line of the frame: its offset on the left, a label near its start. */
        private void edge(String offset, char corner, char fill, String label) {
            char[] line = String.valueOf(fill).repeat(width).toCharArray();
            label.getChars(0, Math.min(label.length(), width - 2), line, 2);
            out.append(right(offset, MARGIN)).append(' ').append(corner).append(line).append(corner).append('\n');
        }

        private static String right(String text, int width) {
            return " ".repeat(Math.max(width - text.length(), 0)) + text;
        }

        /** Row 0 is the top: the bytes just under the arena top. */
        private char[][] cells() {
            char[][] cells = new char[ROWS][width];
            double rowBytes = (double) panel.arenaBytes() / ROWS;
            double columnSteps = (double) panel.steps() / width;
            for (int row = 0; row < ROWS; row++) {
                double low = (ROWS - 1 - row) * rowBytes;
                for (int column = 0; column < width; column++) {
                    double start = column * columnSteps;
                    double covered = 0;
                    double most = 0;
                    char symbol = ' ';
                    for (int i = 0; i < owners.size(); i++) {
                        Box b = owners.get(i);
                        double area = overlap(start, start + columnSteps, b.first(), b.last() + 1)
                                * overlap(low, low + rowBytes, b.offset(), b.offset() + b.bytes());
                        covered += area;
                        if (area > most) {
                            most = area;
                            symbol = symbol(i);
                        }
                    }
                    cells[row][column] = covered * 2 >= columnSteps * rowBytes ? symbol : ' ';
                }
            }
            return cells;
        }

        private static double overlap(double from, double to, double otherFrom, double otherTo) {
            return Math.max(0, Math.min(to, otherTo) - Math.max(from, otherFrom));
        }

        private static char symbol(int owner) {
            return SYMBOLS.charAt(owner % SYMBOLS.length());
        }

        /** Node numbers at the column where their step starts, at a round step that keeps them apart. */
        private void nodeAxis() {
            int widest = Integer.toString(panel.steps() - 1).length() + 1;
            int step = 1;
            while (step * width < widest * panel.steps()) {
                step = (int) Numbers.niceStep(step + 1);
            }
            StringBuilder line = new StringBuilder(right("node", MARGIN)).append("  ");
            for (int node = 0; node < panel.steps(); node += step) {
                int column = MARGIN + 2 + (int) ((long) node * width / panel.steps());
                line.append(" ".repeat(Math.max(column - line.length(), 0))).append(node);
            }
            out.append(line).append('\n');
        }

        /** A caret under the middle of the peak's step, named on the side where the plot has room. */
        private void peakMarker() {
            if (panel.peak().live().isEmpty()) {
                return;
            }
            int column = MARGIN + 2 + (int) ((2L * panel.peak().step() + 1) * width / (2L * panel.steps()));
            boolean roomOnTheRight = column + 6 < MARGIN + 3 + width;
            out.append(roomOnTheRight ? " ".repeat(column) + "^ peak" : " ".repeat(column - 5) + "peak ^").append('\n');
        }

        /** The largest buffers, one a line: symbol, bytes, interval, label (cut to the line's width). */
        private void legend() {
            int shown = Math.min(LEGEND, owners.size());
            int bytesWidth = 0;
            int intervalWidth = 0;
            for (int i = 0; i < shown; i++) {
                bytesWidth = Math.max(bytesWidth, Numbers.bytes(owners.get(i).bytes()).length());
                intervalWidth = Math.max(intervalWidth, owners.get(i).interval().length());
            }
            int labelWidth = Math.max(columns - bytesWidth - intervalWidth - 9, 8);
            for (int i = 0; i < shown; i++) {
                Box b = owners.get(i);
                out.append("  ").append(symbol(i)).append("  ").append(right(Numbers.bytes(b.bytes()), bytesWidth))
                        .append("  ").append(b.interval()).append(" ".repeat(intervalWidth - b.interval().length()))
                        .append("  ").append(b.shortLabel(labelWidth)).append('\n');
            }
            if (owners.size() > shown) {
                out.append("  and ").append(Numbers.count(owners.size() - shown, "more buffer")).append('\n');
            }
            Peak peak = panel.peak();
            if (!peak.live().isEmpty()) {
                out.append("  ^  peak of the lower bound: ").append(peak.where()).append(", ")
                        .append(Numbers.bytes(peak.bytes())).append(" live in ")
                        .append(Numbers.count(peak.live().size(), "buffer")).append('\n');
            }
            int aliases = panel.boxes().size() - owners.size();
            if (aliases > 0) {
                out.append("  in-place aliases, drawn as their roots: ").append(aliases).append('\n');
            }
        }
    }
}
