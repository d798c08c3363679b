package dev.tflitearena.isolation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.TestModels;
import dev.tflitearena.cli.Main;
import dev.tflitearena.fuzz.CrashingMutant;
import dev.tflitearena.fuzz.ModelMutator;
import dev.tflitearena.memory.JvmMalloc;
import dev.tflitearena.memory.MemoryProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SupervisorTest {
    /** A verified model whose DEQUANTIZE prepare crashes TFLite (see IsolatedRunTest). */

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int supervise(String... args) {
        return Supervisor.run(Main.class, List.of(), List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aCrashInNativeCodeBecomesOneLineAndAnExitStatusAndTheReportIsKept(@TempDir Path dir) throws IOException {
        ModelMutator.Mutant mutant = CrashingMutant.of();
        Path crashing = Files.write(dir.resolve("crashing.tflite"), mutant.bytes());

        assertEquals(Supervisor.EXIT_CRASHED, supervise("compare", crashing.toString()));

        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("tflite-arena: native code crashed the process that ran this command: SIGSEGV"),
                message);
        Path report = Path.of(message.substring(message.lastIndexOf(" is ") + 4, message.length() - 2));
        assertTrue(Files.readString(report).contains("SIGSEGV"), report.toString());
        Files.delete(report);
        assertTrue(out.toString(StandardCharsets.UTF_8).lines().noneMatch(CrashReport::isReportLine),
                "the JVM's own report is held back: " + out);
    }

    @Test
    void theMemoryCommandsChildTakesTheJvmsOwnMallocsOut() throws IOException {
        Path model = TestModels.named("face_detection_short_range.tflite");

        assertEquals(0, Supervisor.run(Main.class, List.of(JvmMalloc.OPTION), List.of("memory", model.toString(),
                "--planner", "native", "--json"), new PrintStream(out, true, StandardCharsets.UTF_8), System.err));

        JsonNode run = new ObjectMapper().readTree(out.toByteArray()).get("runs").get(0);
        for (JsonNode sample : run.get("samples")) {
            assertTrue(sample.get("jvm_malloc_bytes").asLong() > 0, sample.toString());
            assertEquals(sample.get("heap_in_use_bytes").asLong() + sample.get("heap_mapped_bytes").asLong()
                    - sample.get("jvm_malloc_bytes").asLong(), sample.get("heap_outside_jvm_bytes").asLong());
        }
        assertEquals(MemoryProfile.GROWTH_TOLERANCE_OUTSIDE_JVM, run.get("growth_tolerance_bytes").asLong());
    }

    @Test
    void aCommandThatEndsWellPassesItsOutputAndStatusThrough() {
        Path model = TestModels.named("face_detection_short_range.tflite");

        assertEquals(0, supervise("compare", model.toString(), "--json"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"identical\" : true"), out.toString());

        out.reset();
        assertEquals(2, supervise("compare", "no-such.tflite"));
    }
}
