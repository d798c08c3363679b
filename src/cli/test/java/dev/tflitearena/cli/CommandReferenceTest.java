package dev.tflitearena.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The committed command reference is what the commands generate now: no command, option or default left behind. */
class CommandReferenceTest {
    private static final String REGENERATE = "mvn -B -q -pl src/cli -am process-test-classes -Preference "
            + "-DskipModelFetch";
    /** An option's heading on a page: {@code *-h*, *--help*::} or {@code *--planner*=_NAME_::}. */
    private static final Pattern OPTION = Pattern.compile("^(\\*-[^*]+\\*)(, \\*-[^*]+\\*)*(=.*)?::$");
    private static final Pattern OPTION_NAME = Pattern.compile("\\*(-[^*]+)\\*");

    @TempDir
    Path temp;

    @Test
    void theCommittedPagesAreThoseTheCommandsGenerate() throws IOException {
        CommandReference.write(temp);
        Map<String, String> commands = new TreeMap<>();
        pageNames(Main.commandLine(), commands);
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> command : commands.entrySet()) {
            Path committed = CommandReference.COMMITTED.resolve(command.getKey());
            if (!Files.exists(committed)) {
                problems.add("command '" + command.getValue() + "' has no page " + committed);
            } else {
                difference(command.getValue(), Files.readAllLines(committed), Files.readAllLines(temp.resolve(
                        command.getKey()))).ifPresent(d -> problems.add(committed + ": " + d));
            }
        }
        for (Path page : CommandReference.pages(CommandReference.COMMITTED)) {
            if (!commands.containsKey(page.getFileName().toString())) {
                problems.add(page + " is the page of no command");
            }
        }
        assertTrue(problems.isEmpty(), "the command reference is out of date; regenerate it with " + REGENERATE
                + ":\n" + String.join("\n", problems));
    }

    /** Each page's file name and its command's name, the command and its subcommands. */
    private static void pageNames(CommandLine command, Map<String, String> pages) {
        pages.put(command.getCommandSpec().qualifiedName("-") + CommandReference.PAGE_EXTENSION,
                command.getCommandSpec().qualifiedName());
        command.getSubcommands().values().forEach(sub -> pageNames(sub, pages));
    }

    /** What differs between the committed page and the generated one, by option where it is an option's. */
    private static Optional<String> difference(String command, List<String> committed,
                                               List<String> generated) {
        Map<String, String> committedOptions = options(committed);
        Map<String, String> generatedOptions = options(generated);
        List<String> found = new ArrayList<>();
        generatedOptions.keySet().stream().filter(o -> !committedOptions.containsKey(o))
                .forEach(o -> found.add("command '" + command + "': option " + o + " is missing"));
        committedOptions.keySet().stream().filter(o -> !generatedOptions.containsKey(o))
                .forEach(o -> found.add("command '" + command + "': option " + o + " is no longer an option of it"));
        generatedOptions.keySet().stream().filter(o -> committedOptions.containsKey(o)
                        && !committedOptions.get(o).equals(generatedOptions.get(o)))
                .forEach(o -> found.add("command '" + command + "': option " + o + " differs: committed '"
                        + committedOptions.get(o) + "', generated '" + generatedOptions.get(o) + "'"));
        if (found.isEmpty() && !committed.equals(generated)) {
            int line = 0;
            int common = Math.min(committed.size(), generated.size());
            while (line < common && committed.get(line).equals(generated.get(line))) {
                line++;
            }
            found.add("command '" + command + "': line " + (line + 1) + " differs: committed '"
                    + (line < committed.size() ? committed.get(line) : "") + "', generated '"
                    + (line < generated.size() ? generated.get(line) : "") + "'");
        }
        return found.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", found));
    }

    /** A page's options, by their longest name, each with its heading and description. */
    private static Map<String, String> options(List<String> page) {
        Map<String, String> options = new TreeMap<>();
        for (int i = 0; i < page.size(); i++) {
            if (OPTION.matcher(page.get(i)).matches()) {
                String name = "";
                Matcher names = OPTION_NAME.matcher(page.get(i).substring(0, page.get(i).length() - 2));
                while (names.find()) {
                    // picocli writes the third and later names of an option in the second's asterisks.
                    for (String n : names.group(1).split(", ")) {
                        name = n.length() > name.length() ? n : name;
                    }
                }
                options.put(name, page.get(i) + (i + 1 < page.size() ? " " + page.get(i + 1).strip() : ""));
            }
        }
        return options;
    }
}
