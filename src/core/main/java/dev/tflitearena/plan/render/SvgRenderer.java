package dev.tflitearena.plan.render;

import dev.tflitearena.plan.render.PlanPicture.Box;
import dev.tflitearena.plan.render.PlanPicture.Panel;

/**
 * Draws a {@link PlanPicture} as a standalone SVG: a legend under the title, then time (nodes) across, offsets
 * up from 0, one panel per subgraph stacked down the page, with the peak of the lower bound as a band across
 * its step. Every box carries a {@code <title>}, the browser's tooltip, so a plan of hundreds of tensors stays
 * readable without labels on the small ones. Styling is by presentation attributes,
 * not a {@code <style>} sheet, because a sheet inside an SVG inlined in HTML would apply to the whole page.
 * The output has no XML declaration, so that it can also be pasted inline into HTML.
 */
public final class SvgRenderer {
    static final int WIDTH = 1200;
    private static final int LEFT = 84;
    private static final int RIGHT = 176;
    private static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    private static final int PLOT_HEIGHT = 400;
    private static final int HEADER = 74;
    /** The legend's baseline, under the title. */
    private static final int LEGEND_Y = 54;
    /** The room a character of the legend's 12 px text takes, and of the peak's 11 px bold label. */
    private static final double LEGEND_CHAR_WIDTH = 6.2;
    private static final double BOLD_CHAR_WIDTH = 7;
    private static final int PANEL_TOP = 54;
    private static final int PANEL_BOTTOM = 58;
    /** Space above the arena top, so that its line is not lost in the frame and its label fits. */
    private static final double HEADROOM = 1.07;
    /** The room a box's label takes, per character and per line, at its 11 px font. */
    private static final double CHAR_WIDTH = 6.4;
    private static final double LINE_HEIGHT = 13;
    /** A white band under each horizontal line, so that it stands out from the boxes it crosses. */
    private static final String HALO = "stroke=\"#fff\" stroke-width=\"4\" stroke-opacity=\"0.8\"";
    private static final String ARENA_TOP = "stroke=\"#000\" stroke-width=\"1.8\"";
    private static final String LOWER_BOUND = "stroke=\"#8e24aa\" stroke-width=\"1.8\" stroke-dasharray=\"7 5\"";
    private static final String ALIAS = "stroke=\"#222\" stroke-dasharray=\"3 2\" fill-opacity=\"0.45\"";
    /** The peak's band is a black frame, which shows on every colour and leaves the boxes' colours as they are. */
    private static final String PEAK = "fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"";
    /** The room the peak's label takes at the top of the plot, in the headroom: the band starts under it. */
    private static final int PEAK_LABEL_ROOM = 19;
    /**
     * Tableau 20's ten hues, dark then light. A box's colour comes from its label's hash, never from its
     * position, so the same tensor keeps its colour across planners and runs. Names that differ in one counter
     * ({@code t0}, {@code t1}; {@code re_lu_57}, {@code re_lu_58}) have hashes 1 or 11 apart modulo 20: the
     * lights are rotated by five hues so that neither step lands on the same hue.
     */
    private static final String[] PALETTE = {
        "#4e79a7", "#f28e2b", "#59a14f", "#b6992d", "#499894", "#e15759", "#79706e", "#d37295", "#b07aa1",
        "#9d7660",
        "#ff9d9a", "#bab0ac", "#fabfd2", "#d4a6c8", "#d7b5a6", "#a0cbe8", "#ffbe7d", "#8cd17d", "#f1ce63",
        "#86bcb6",
    };

    private SvgRenderer() {
    }

    public static String render(PlanPicture picture) {
        int height = HEADER + picture.panels().size() * (PANEL_TOP + PLOT_HEIGHT + PANEL_BOTTOM);
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
        svg.append("<title>").append(Xml.escape(picture.title())).append("</title>\n");
        svg.append("<rect class=\"background\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" fill=\"#fff\"/>\n");
        text(svg, 16, 28, "font-size=\"18\" font-weight=\"bold\"", picture.title());
        legend(svg);
        int top = HEADER;
        for (Panel panel : picture.panels()) {
            new PanelDrawing(svg, panel, top).draw();
            top += PANEL_TOP + PLOT_HEIGHT + PANEL_BOTTOM;
        }
        return svg.append("</svg>\n").toString();
    }

    /** What each mark means, in one row: the boxes, the two lines, the peak's band. */
    private static void legend(StringBuilder svg) {
        svg.append("<g class=\"legend\" fill=\"#333\">\n");
        double x = 16;
        double top = LEGEND_Y - 10;
        svg.append("<rect x=\"").append(Numbers.decimal(x)).append("\" y=\"").append(Numbers.decimal(top))
                .append("\" width=\"9\" height=\"12\" fill=\"").append(PALETTE[0]).append("\"/>\n");
        svg.append("<rect x=\"").append(Numbers.decimal(x + 9)).append("\" y=\"").append(Numbers.decimal(top))
                .append("\" width=\"9\" height=\"12\" fill=\"").append(PALETTE[16]).append("\"/>\n");
        x = legendText(svg, x + 18, "buffer, coloured by its name; hover for details");
        svg.append("<rect x=\"").append(Numbers.decimal(x)).append("\" y=\"").append(Numbers.decimal(top))
                .append("\" width=\"18\" height=\"12\" fill=\"#fff\" ").append(ALIAS).append("/>\n");
        x = legendText(svg, x + 18, "in-place alias, on its root");
        x = legendText(svg, legendLine(svg, x, ARENA_TOP), "arena top");
        x = legendText(svg, legendLine(svg, x, LOWER_BOUND), "lower bound");
        svg.append("<rect x=\"").append(Numbers.decimal(x + 6)).append("\" y=\"").append(Numbers.decimal(top - 2))
                .append("\" width=\"6\" height=\"16\" ").append(PEAK).append("/>\n");
        legendText(svg, x + 18, "peak of the lower bound");
        svg.append("</g>\n");
    }

    /** A line's sample, from {@code x}; returns where its text goes. */
    private static double legendLine(StringBuilder svg, double x, String paint) {
        String y = Numbers.decimal(LEGEND_Y - 4);
        svg.append("<line x1=\"").append(Numbers.decimal(x)).append("\" y1=\"").append(y).append("\" x2=\"")
                .append(Numbers.decimal(x + 24)).append("\" y2=\"").append(y).append("\" ").append(paint)
                .append("/>\n");
        return x + 24;
    }

    /** A legend entry's text right of its sample at {@code x}; returns where the next sample goes. */
    private static double legendText(StringBuilder svg, double x, String text) {
        text(svg, x + 5, LEGEND_Y, "", text);
        return x + 5 + text.length() * LEGEND_CHAR_WIDTH + 18;
    }

    private static void text(StringBuilder svg, double x, double y, String attributes, String text) {
        svg.append("<text x=\"").append(Numbers.decimal(x)).append("\" y=\"").append(Numbers.decimal(y))
                .append('"').append(attributes.isEmpty() ? "" : " " + attributes).append('>')
                .append(Xml.escape(text)).append("</text>\n");
    }

    /** One panel: its frame and scales fixed at construction, drawn back to front. */
    private static final class PanelDrawing {
        private final StringBuilder svg;
        private final Panel panel;
        private final int top;
        private final double plotTop;
        private final double plotBottom;
        private final double right = LEFT + PLOT_WIDTH;
        private final double bytesShown;

        PanelDrawing(StringBuilder svg, Panel panel, int top) {
            this.svg = svg;
            this.panel = panel;
            this.top = top;
            this.plotTop = top + PANEL_TOP;
            this.plotBottom = plotTop + PLOT_HEIGHT;
            this.bytesShown = Math.max(Math.max(panel.arenaBytes(), panel.lowerBound()), 1) * HEADROOM;
        }

        void draw() {
            text(svg, 16, top + 18, "font-size=\"15\" font-weight=\"bold\"", panel.title());
            text(svg, 16, top + 37, "fill=\"#444\"", panel.caption());
            svg.append("<rect class=\"frame\" x=\"").append(LEFT).append("\" y=\"").append(Numbers.decimal(plotTop))
                    .append("\" width=\"").append(PLOT_WIDTH).append("\" height=\"").append(PLOT_HEIGHT)
                    .append("\" fill=\"#fafafa\" stroke=\"#888\"/>\n");
            offsetAxis();
            nodeAxis();
            boxes();
            peak();
            // Both halos under both lines: where the lines meet, the dashed lower bound shows the arena top
            // between its dashes.
            horizontal("halo", panel.arenaBytes(), right, HALO);
            horizontal("halo", panel.lowerBound(), right, HALO);
            boolean tight = panel.arenaBytes() == panel.lowerBound();
            line("arena-top", panel.arenaBytes(), "#000", ARENA_TOP, "arena top " + Numbers.human(panel.arenaBytes()),
                    -5);
            line("lower-bound", panel.lowerBound(), "#8e24aa", LOWER_BOUND,
                    tight ? "= lower bound" : "lower bound " + Numbers.human(panel.lowerBound()), 14);
            labels();
        }

        private double x(double step) {
            return LEFT + step * PLOT_WIDTH / panel.steps();
        }

        private double y(double bytes) {
            return plotBottom - bytes * PLOT_HEIGHT / bytesShown;
        }

        /** Ticks and faint grid lines at round offsets, labelled in KiB or MiB. */
        private void offsetAxis() {
            long step = Numbers.byteStep(bytesShown / 6);
            StringBuilder grid = new StringBuilder();
            StringBuilder ticks = new StringBuilder();
            for (long offset = 0; offset <= bytesShown; offset += step) {
                double y = y(offset);
                grid.append("M").append(LEFT).append(' ').append(Numbers.decimal(y)).append("H")
                        .append(Numbers.decimal(right));
                ticks.append("M").append(LEFT - 5).append(' ').append(Numbers.decimal(y)).append("h5");
                text(svg, LEFT - 8, y + 4, "text-anchor=\"end\"", Numbers.human(offset));
            }
            path(grid, "#e2e2e2");
            path(ticks, "#888");
            double middle = (plotTop + plotBottom) / 2;
            text(svg, 14, middle, "text-anchor=\"middle\" fill=\"#444\" transform=\"rotate(-90 14 "
                    + Numbers.decimal(middle) + ")\"", "offset");
        }

        /** Node numbers under the middle of their column, at a round step that leaves room for each. */
        private void nodeAxis() {
            int step = (int) Math.max(1, Numbers.niceStep(panel.steps() / 12.0));
            StringBuilder ticks = new StringBuilder();
            for (int node = 0; node < panel.steps(); node += step) {
                double x = x(node + 0.5);
                ticks.append("M").append(Numbers.decimal(x)).append(' ').append(Numbers.decimal(plotBottom))
                        .append("v5");
                text(svg, x, plotBottom + 18, "text-anchor=\"middle\"", Integer.toString(node));
            }
            path(ticks, "#888");
            text(svg, LEFT + PLOT_WIDTH / 2.0, plotBottom + 38, "text-anchor=\"middle\" fill=\"#444\"",
                    "node (" + panel.steps() + (panel.steps() == 1 ? " step)" : " steps)"));
        }

        private void path(StringBuilder d, String stroke) {
            if (d.length() > 0) {
                svg.append("<path d=\"").append(d).append("\" stroke=\"").append(stroke)
                        .append("\" fill=\"none\"/>\n");
            }
        }

        /**
         * Owners first, then in-place aliases over them as light dashed boxes through which the root's colour
         * shows.
         */
        private void boxes() {
            svg.append("<g stroke=\"#fff\" stroke-width=\"0.6\">\n");
            for (Box box : panel.boxes()) {
                if (!box.alias()) {
                    rect(box, "buffer", PALETTE[Math.floorMod(box.label().hashCode(), PALETTE.length)]);
                }
            }
            svg.append("</g>\n<g ").append(ALIAS).append(">\n");
            for (Box box : panel.boxes()) {
                if (box.alias()) {
                    rect(box, "alias", "#fff");
                }
            }
            svg.append("</g>\n");
        }

        /**
         * The names of boxes big enough to hold a few characters, on top of everything so that no line hides
         * them. They let the pointer through to the box, whose tooltip says more.
         */
        private void labels() {
            svg.append("<g font-size=\"11\" fill=\"#111\" pointer-events=\"none\">\n");
            for (Box box : panel.boxes()) {
                label(box);
            }
            svg.append("</g>\n");
        }

        private void rect(Box box, String kind, String fill) {
            double x = x(box.first());
            double width = Math.max(1, x(box.last() + 1) - x);
            double y = y(box.offset() + box.bytes());
            double height = Math.max(1, y(box.offset()) - y);
            svg.append("<rect class=\"").append(kind).append("\" x=\"").append(Numbers.decimal(x))
                    .append("\" y=\"").append(Numbers.decimal(y)).append("\" width=\"")
                    .append(Numbers.decimal(width)).append("\" height=\"").append(Numbers.decimal(height))
                    .append("\" fill=\"").append(fill).append("\"><title>").append(Xml.escape(tooltip(box)))
                    .append("</title></rect>\n");
        }

        private static String tooltip(Box box) {
            return box.label() + "\n" + Numbers.size(box.bytes()) + "\noffset " + Numbers.bytes(box.offset())
                    + " to " + Numbers.bytes(box.offset() + box.bytes()) + "\n" + box.interval()
                    + (box.alias() ? "\nin place on " + box.aliasOf() : "");
        }

        private void label(Box box) {
            double width = x(box.last() + 1) - x(box.first());
            double height = y(box.offset()) - y(box.offset() + box.bytes());
            int fits = (int) ((width - 6) / CHAR_WIDTH);
            // An alias's label goes to its bottom edge, below its root's label at the top: it needs two lines.
            if (height < (box.alias() ? 2 * LINE_HEIGHT : LINE_HEIGHT) || fits < 6) {
                return;
            }
            String text = box.shortLabel(fits);
            if (text.isEmpty()) {
                return;
            }
            double baseline = box.alias() ? y(box.offset()) - 4 : y(box.offset() + box.bytes()) + 12;
            text(svg, x(box.first()) + 3, baseline, "", text);
        }

        /**
         * The peak's step as a band down to the node axis, at least 4 px wide, under its label, which sits in the
         * headroom above the arena top and inside the frame. The pointer passes through to the boxes under it.
         */
        private void peak() {
            if (panel.peak().live().isEmpty()) {
                return;
            }
            double middle = x(panel.peak().step() + 0.5);
            double width = Math.max(4, x(1) - x(0));
            svg.append("<rect class=\"peak\" x=\"").append(Numbers.decimal(middle - width / 2)).append("\" y=\"")
                    .append(Numbers.decimal(plotTop + PEAK_LABEL_ROOM)).append("\" width=\"")
                    .append(Numbers.decimal(width)).append("\" height=\"").append(PLOT_HEIGHT - PEAK_LABEL_ROOM)
                    .append("\" ").append(PEAK)
                    .append(" pointer-events=\"none\"/>\n");
            String label = "peak: " + panel.peak().where() + ", " + Numbers.human(panel.peak().bytes()) + " live";
            double half = label.length() * BOLD_CHAR_WIDTH / 2 + 4;
            double x = Math.min(Math.max(middle, LEFT + half), right - half);
            text(svg, x, plotTop + 15, "class=\"peak-label\" text-anchor=\"middle\" font-size=\"11\" "
                    + "font-weight=\"bold\" stroke=\"#fafafa\" stroke-width=\"3\" paint-order=\"stroke\"", label);
        }

        /** A labelled horizontal line across the plot; the label sits right of the frame, clear of the boxes. */
        private void line(String kind, long bytes, String stroke, String paint, String label, int labelShift) {
            horizontal(kind, bytes, right + 4, paint);
            text(svg, right + 8, y(bytes) + labelShift, "fill=\"" + stroke + "\" font-weight=\"bold\"", label);
        }

        private void horizontal(String kind, long bytes, double end, String paint) {
            String y = Numbers.decimal(y(bytes));
            svg.append("<line class=\"").append(kind).append("\" x1=\"").append(LEFT).append("\" y1=\"").append(y)
                    .append("\" x2=\"").append(Numbers.decimal(end)).append("\" y2=\"").append(y).append("\" ")
                    .append(paint).append("/>\n");
        }
    }
}
