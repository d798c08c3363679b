package dev.tflitearena;

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
 * The packages under one root package, read from their sources, for the tests that check a split into packages:
 * each states its idea in a package-info.java, and no chain of references between them comes back to where it
 * started, so each can be read knowing only those below it.
 */
public final class PackageDependencies {
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** Comments and string literals, which name classes without depending on them. */
    private static final Pattern NOT_CODE = Pattern.compile("/\\*[\\s\\S]*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\\\n])*\"");

    private final Path sources;
    private final String root;
    /** Each package under the root and the other packages under it that its classes refer to. */
    private final Map<String, Set<String>> uses;

    private PackageDependencies(Path sources, String root, Map<String, Set<String>> uses) {
        this.sources = sources;
        this.root = root;
        this.uses = uses;
    }

    /** The packages of {@code root}, whose sources are in {@code sources} (the root package's directory). */
    public static PackageDependencies read(Path sources, String root) throws IOException {
        assertTrue(Files.isDirectory(sources), sources.toAbsolutePath() + " is not the sources of " + root);
        // A class under the root named by its package, in an import or in code: root[.sub].Class.
        Pattern reference = Pattern.compile("\\b(" + Pattern.quote(root) + "(?:\\.[a-z]\\w*)*)\\.[A-Z]");
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher declared = PACKAGE.matcher(source);
                assertTrue(declared.find(), file + " declares no package");
                String own = declared.group(1);
                Set<String> used = uses.computeIfAbsent(own, p -> new TreeSet<>());
                Matcher m = reference.matcher(NOT_CODE.matcher(source).replaceAll(""));
                while (m.find()) {
                    if (!m.group(1).equals(own)) {
                        used.add(m.group(1));
                    }
                }
            }
        }
        return new PackageDependencies(sources, root, uses);
    }

    public Map<String, Set<String>> uses() {
        return uses;
    }

    /** Fails unless every package has a package-info.java opening with a Javadoc comment, its idea. */
    public void assertEveryPackageStatesItsIdea() throws IOException {
        for (String p : uses.keySet()) {
            String below = p.substring(root.length()).replaceFirst("^\\.", "");
            Path info = sources.resolve(below.replace('.', '/')).resolve("package-info.java");
            assertTrue(Files.isRegularFile(info), p + " has no package-info.java");
            assertTrue(Files.readString(info).startsWith("/**"), info + " opens with its idea, in a Javadoc comment");
        }
    }

    /** Fails unless the root is split into packages and no chain of references between them is a cycle. */
    public void assertNoCycle() {
        assertTrue(uses.size() > 1, root + " is split into packages: " + uses.keySet());
        List<String> cycle = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String p : uses.keySet()) {
            if (cycle.isEmpty()) {
                findCycle(p, new ArrayList<>(), done, cycle);
            }
        }
        assertEquals(List.of(), cycle, "a cycle between the packages of " + root);
    }

    /** Depth first; on a cycle, fills {@code cycle} with it, its first package repeated at the end. */
    private void findCycle(String p, List<String> path, Set<String> done, List<String> cycle) {
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
            findCycle(used, path, done, cycle);
        }
        path.remove(path.size() - 1);
        done.add(p);
    }
}
