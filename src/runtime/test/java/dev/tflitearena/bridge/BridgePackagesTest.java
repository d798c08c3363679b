package dev.tflitearena.bridge;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bridge's packages, read from their sources: each states its idea in a package-info.java, and no chain of
 * references between them comes back to where it started, so each can be read knowing only those below it.
 */
class BridgePackagesTest {
    /** Tests run from the project's root directory. */
    private static final Path SOURCES = Path.of("src/runtime/main/java/dev/tflitearena/bridge");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** A bridge class named by its package, in an import or in code: dev.tflitearena.bridge[.sub].Class. */
    private static final Pattern REFERENCE =
            Pattern.compile("\\b(dev\\.tflitearena\\.bridge(?:\\.[a-z]\\w*)*)\\.[A-Z]");
    /** Comments and string literals, which name classes without depending on them. */
    private static final Pattern NOT_CODE = Pattern.compile("/\\*[\\s\\S]*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\\\n])*\"");

    @Test
    void everyPackageStatesItsIdea() throws IOException {
        for (String p : dependencies().keySet()) {
            String below = p.substring("dev.tflitearena.bridge".length()).replaceFirst("^\\.", "");
            Path info = SOURCES.resolve(below.replace('.', '/')).resolve("package-info.java");
            assertTrue(Files.isRegularFile(info), p + " has no package-info.java");
            assertTrue(Files.readString(info).startsWith("/**"), info + " opens with its idea, in a Javadoc comment");
        }
    }

    @Test
    void packagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        assertTrue(uses.size() > 1, "the bridge is split into packages: " + uses.keySet());
        List<String> cycle = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String p : uses.keySet()) {
            if (cycle.isEmpty()) {
                findCycle(p, uses, new ArrayList<>(), done, cycle);
            }
        }
        assertEquals(List.of(), cycle, "a cycle between the bridge's packages");
    }

    /** Depth first; on a cycle, fills {@code cycle} with it, its first package repeated at the end. */
    private static void findCycle(String p, Map<String, Set<String>> uses, List<String> path, Set<String> done,
                                  List<String> cycle) {
        if (done.contains(p) || !cycle.isEmpty()) {
            return;
        }
        int at = path.indexOf(p);
        if (at >= 0) {
            cycle.addAll(path.subList(at, path.size()));
            cycle.add(p);
            return;
        }
        path.add(p);
        for (String used : uses.getOrDefault(p, Set.of())) {
            findCycle(used, uses, path, done, cycle);
        }
        path.remove(path.size() - 1);
        done.add(p);
    }

    /** Each bridge package and the other bridge packages its classes refer to. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), SOURCES.toAbsolutePath() + " is not the bridge's sources");
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher declared = PACKAGE.matcher(source);
                assertTrue(declared.find(), file + " declares no package");
                String own = declared.group(1);
                Set<String> used = uses.computeIfAbsent(own, p -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(NOT_CODE.matcher(source).replaceAll(""));
                while (m.find()) {
                    if (!m.group(1).equals(own)) {
                        used.add(m.group(1));
                    }
                }
            }
        }
        return uses;
    }
}
