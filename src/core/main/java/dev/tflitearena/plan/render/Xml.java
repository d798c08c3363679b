package dev.tflitearena.plan.render;

/** Text made safe for XML content and attribute values; tensor names come from models and may hold anything. */
public final class Xml {
    private Xml() {
    }

    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                // XML 1.0 cannot hold other control characters, not even as references.
                default -> out.append(c < 0x20 && c != '\n' && c != '\t' ? '?' : c);
            }
        }
        return out.toString();
    }
}
