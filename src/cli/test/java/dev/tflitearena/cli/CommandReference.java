package dev.tflitearena.cli;

import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The command reference: one AsciiDoc page per command, written by picocli's ManPageGenerator from the commands
 * themselves, so that no option or default is described by hand. The build's 'reference' profile runs it
 * (docs/reference/commands/README.md); {@link CommandReferenceTest} fails while the committed pages differ.
 */
public final class CommandReference {
    /** Where the pages are committed, from the project's directory. */
    static final Path COMMITTED = Path.of("docs/reference/commands");
    static final String PAGE_EXTENSION = ".adoc";

    private CommandReference() {
    }

    /** @param args the directory to write the pages to (default: {@link #COMMITTED}) */
    public static void main(String[] args) throws IOException {
        Path directory = args.length == 0 ? COMMITTED : Path.of(args[0]);
        write(directory);
        System.out.println(pages(directory).size() + " command pages written to " + directory);
    }

    /** Writes every command's page to {@code directory}, after taking out the pages already there. */
    static void write(Path directory) throws IOException {
        Files.createDirectories(directory);
        // A command that is gone leaves no page behind.
        for (Path page : pages(directory)) {
            Files.delete(page);
        }
        ManPageGenerator.generateManPage(directory.toFile(), null, new boolean[0], false,
                Main.commandLine().getCommandSpec());
    }

    /** The pages in {@code directory}, by name. */
    static List<Path> pages(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(PAGE_EXTENSION)).sorted().toList();
        }
    }
}
