package dev.tflitearena.bridge;

import dev.tflitearena.PackageDependencies;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The bridge's packages, read from their sources: each states its idea in a package-info.java, and no chain of
 * references between them comes back to where it started, so each can be read knowing only those below it.
 */
class BridgePackagesTest {
    /** Tests run from the project's root directory. */
    private static final Path SOURCES = Path.of("src/runtime/main/java/dev/tflitearena/bridge");

    @Test
    void everyPackageStatesItsIdea() throws IOException {
        PackageDependencies.read(SOURCES, "dev.tflitearena.bridge").assertEveryPackageStatesItsIdea();
    }

    @Test
    void packagesFormNoCycle() throws IOException {
        PackageDependencies.read(SOURCES, "dev.tflitearena.bridge").assertNoCycle();
    }
}
