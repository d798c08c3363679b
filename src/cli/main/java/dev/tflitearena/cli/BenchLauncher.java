package dev.tflitearena.cli;

import dev.tflitearena.cli.options.ProgressOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The {@code bench} command. The benchmarks live in their own jar, tflite-arena-bench.jar, which the build puts
 * beside this one, so that JMH, DJL and DJL's own TFLite stay out of this jar; the command runs that jar in a
 * JVM of its own with the same arguments, its output and exit status this command's.
 */
@Command(name = "bench",
        description = "Runs the JMH benchmarks, Java against native on the same models: planning alone, setting an "
                + "interpreter up, invoke, and with --throughput a SessionPool against DJL's TFLite engine. They "
                + "are the benchmarks' own jar, " + BenchLauncher.JAR + " beside this one, run with these "
                + "arguments: 'bench --help' lists them.")
final class BenchLauncher implements Callable<Integer> {
    static final String JAR = "tflite-arena-bench.jar";

    @Unmatched
    List<String> arguments = new ArrayList<>();

    /** Holds --quiet, which every command takes from it: the benchmarks' jar takes it too. */
    @ParentCommand
    Main main;

    @Override
    public Integer call() throws IOException, InterruptedException, URISyntaxException {
        Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolveSibling(JAR);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(jar + " is missing: the benchmarks are a jar of their own, built "
                    + "beside this one by mvn package");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString()));
        command.addAll(arguments);
        if (main.quiet) {
            command.add(ProgressOptions.QUIET);
        }
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
