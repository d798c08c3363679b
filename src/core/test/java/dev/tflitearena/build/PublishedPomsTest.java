package dev.tflitearena.build;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Maven Central asks of a published artifact beyond its POM's metadata (which the enforcer checks in
 * every module's effective POM): the license file, and sources and Javadoc jars beside every published jar.
 * A module that is not published says so with {@code maven.deploy.skip}.
 */
class PublishedPomsTest {
    private static final Path ROOT = Path.of("pom.xml");

    @Test
    void theLicenseIsApache2() throws Exception {
        String license = Files.readString(Path.of("LICENSE"));
        assertTrue(license.contains("Apache License") && license.contains("Version 2.0, January 2004"),
                "LICENSE is not the Apache License 2.0");
        assertEquals("Apache-2.0", text(child(child(read(ROOT), "licenses"), "license"), "name"));
    }

    @Test
    void everyPublishedJarHasSourcesAndJavadoc() throws Exception {
        List<String> published = new ArrayList<>();
        for (Path pom : modules()) {
            Element project = read(pom);
            if ("true".equals(text(child(project, "properties"), "maven.deploy.skip"))) {
                continue;
            }
            published.add(text(project, "artifactId"));
            String build = Files.readString(pom);
            boolean sources = build.contains("<artifactId>maven-source-plugin</artifactId>")
                    || build.contains("<classifier>sources</classifier>");
            boolean javadoc = build.contains("<artifactId>maven-javadoc-plugin</artifactId>")
                    || build.contains("<classifier>javadoc</classifier>");
            assertTrue(sources && javadoc, pom + " is published (no maven.deploy.skip) but builds no "
                    + (sources ? "" : "sources jar ") + (javadoc ? "" : "Javadoc jar"));
        }
        assertEquals(List.of("tflite-arena-core", "tflite-arena", "tflite-arena-platform"), published);
    }

    private static List<Path> modules() throws Exception {
        List<Path> modules = new ArrayList<>();
        NodeList names = child(read(ROOT), "modules").getElementsByTagName("module");
        for (int i = 0; i < names.getLength(); i++) {
            modules.add(Path.of(names.item(i).getTextContent().strip(), "pom.xml"));
        }
        return modules;
    }

    private static Element read(Path pom) throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    /** The direct child named {@code name}, or null. */
    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().strip();
    }
}
