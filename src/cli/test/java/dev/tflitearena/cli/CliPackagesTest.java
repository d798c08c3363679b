package dev.tflitearena.cli;

import dev.tflitearena.PackageDependencies;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The command line's packages, read from their sources: each states its idea in a package-info.java, and no chain
 * of references between them comes back to where it started, so each can be read knowing only those below it.
 */
class CliPackagesTest {
    /** Tests run from the project's root directory. */
    private static final Path SOURCES = Path.of("src/cli/main/java/dev/tflitearena/cli");

    @Test
    void everyPackageStatesItsIdea() throws IOException {
        PackageDependencies.read(SOURCES, "dev.tflitearena.cli").assertEveryPackageStatesItsIdea();
    }

    @Test
    void packagesFormNoCycle() throws IOException {
        PackageDependencies.read(SOURCES, "dev.tflitearena.cli").assertNoCycle();
    }
}
